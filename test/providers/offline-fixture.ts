import type { SegmentMessage, ToolCall } from '../../src/core/ports.js';

/** Shared offline-extractor fixture: two humans planning a trip with a tool-using assistant. */
/** Thursday 14 March 2024, 09:30 UTC. */
export const T0 = Date.UTC(2024, 2, 14, 9, 30);

export function builder() {
  let n = 0;
  return (
    m: Partial<SegmentMessage> & Pick<SegmentMessage, 'sender_id' | 'role' | 'content'>,
  ): SegmentMessage => {
    n++;
    return {
      id: `m${n}`,
      session_id: 's1',
      sender_name: null,
      timestamp: T0 + n * 60_000,
      tool_calls: null,
      tool_call_id: null,
      ...m,
    };
  };
}

export const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/** Two humans chat, then one asks the assistant, which retries a failing tool call. */
export function travelSegment(reaction = 'Perfect, thanks Helper!'): SegmentMessage[] {
  const msg = builder();
  const alice = { sender_id: 'u_alice', sender_name: 'Alice', role: 'user' as const };
  const bob = { sender_id: 'u_bob', sender_name: 'Bob', role: 'user' as const };
  const helper = { sender_id: 'a_helper', sender_name: 'Helper', role: 'assistant' as const };
  return [
    msg({
      ...alice,
      content: 'Hi Bob! I went to the Lisbon tech conference yesterday and gave my first talk about Rust.',
    }),
    msg({ ...bob, content: 'Wow, congrats Alice! How did it go?' }),
    msg({
      ...alice,
      content: 'It went great, thanks! I work as a backend engineer at Acme. My sister Carla came to watch.',
    }),
    msg({
      ...bob,
      content:
        "That's awesome. I love hiking, and I'm planning a week in the Dolomites next month with my husband.",
    }),
    msg({ ...alice, content: 'Helper, can you check the weather in Chamonix for next weekend?' }),
    msg({
      ...helper,
      content: '',
      tool_calls: [call('c1', 'get_weather', { city: 'Chamonix', date: '2024-03-23' })],
    }),
    msg({ sender_id: 'tool', role: 'tool', content: '{"error":"city not found"}', tool_call_id: 'c1' }),
    msg({
      ...helper,
      content: '',
      tool_calls: [call('c2', 'get_weather', { city: 'Chamonix-Mont-Blanc, FR', date: '2024-03-23' })],
    }),
    msg({ sender_id: 'tool', role: 'tool', content: 'Sunny, 4°C high, light wind.', tool_call_id: 'c2' }),
    msg({ ...helper, content: 'Next Saturday in Chamonix looks sunny with a high of 4°C and light wind.' }),
    msg({ ...bob, content: reaction }),
  ];
}
