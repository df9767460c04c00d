/** Builders for add requests in tests. */
export const T0 = Date.UTC(2024, 4, 8, 13, 0, 0); // 2024-05-08 13:00 UTC
export const MIN = 60_000;
export const DAY = 86_400_000;

export interface Msg {
  sender_id: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  timestamp: number;
  sender_name?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export const user = (id: string, content: string, timestamp: number, name?: string): Msg => ({
  sender_id: id,
  role: 'user',
  content,
  timestamp,
  ...(name ? { sender_name: name } : {}),
});

export const assistant = (id: string, content: string, timestamp: number): Msg => ({
  sender_id: id,
  role: 'assistant',
  content,
  timestamp,
});

/** Two humans and an assistant that looks something up with a tool. */
export function multiParty(t = T0): Msg[] {
  return [
    user('alice', 'Hi Bob! I just moved to Lisbon last week, and I love the food here.', t, 'Alice'),
    user(
      'bob',
      "That's great Alice. I work as a nurse in Porto, and my sister Carla lives in Lisbon too.",
      t + MIN,
      'Bob',
    ),
    user(
      'alice',
      'Can the assistant find us a vegetarian restaurant near Alfama for Saturday?',
      t + 2 * MIN,
      'Alice',
    ),
    {
      sender_id: 'helper-bot',
      role: 'assistant',
      content: 'Let me search for vegetarian restaurants near Alfama.',
      timestamp: t + 3 * MIN,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: {
            name: 'search_restaurants',
            arguments: '{"near":"Alfama","diet":"vegetarian","day":"Saturday"}',
          },
        },
      ],
    },
    {
      sender_id: 'helper-bot',
      role: 'tool',
      content:
        '[{"name":"Ao 26 Vegan Food Project","rating":4.7},{"name":"Jardim das Cerejas","rating":4.5}]',
      timestamp: t + 3 * MIN + 1000,
      tool_call_id: 'call_1',
    },
    assistant(
      'helper-bot',
      'I found Ao 26 Vegan Food Project (4.7) and Jardim das Cerejas (4.5) near Alfama.',
      t + 4 * MIN,
    ),
    user('bob', 'Thanks, that is perfect! I prefer Ao 26.', t + 5 * MIN, 'Bob'),
  ];
}

/** A person's long request to an assistant that mentions several things about her in passing (sender name Lena when spoken as `user`). */
export const LONG_TRIP_REQUEST =
  "I'm putting together a packing list for a two-week trip to Norway in June. " +
  "My partner Idris is coming too, and he gets seasick, so we're skipping the ferries. " +
  'I broke my left wrist skiing in January and it still aches when I carry heavy bags. ' +
  'We booked a cabin near Tromsø through a friend of my brother. ' +
  "I've been learning Norwegian on an app for about three months. " +
  'My budget for gear is around 400 euros. ' +
  'Could you suggest what to pack for the weather up there?';

/** A message longer than a recall context's turn (480 characters) whose last sentences carry the news. */
export const LONG_GARAGE_NOTE =
  'We spent most of the weekend sorting out the garage, which had not been touched since we moved in. ' +
  'There were boxes of old school papers, a broken lawnmower and two bikes with flat tyres. ' +
  'My brother came over on Saturday to help carry things to the recycling centre, and we found a box ' +
  "of our grandfather's letters from the fifties, which we spent an hour reading. " +
  'By Sunday afternoon the floor was clear enough to park the car inside again. ' +
  'Anyway, the reason I am writing: the vet said our cat Pumpkin needs a special kidney diet from now on. ' +
  'Can you find me some brands that are easy to buy in town?';
