// The engram inspector: browse, search and edit one tenant's memory and knowledge bases
// through the REST API (/api/v2). The key stays in this tab's session storage; every text is set as text, never
// parsed as HTML.
const KEY = 'engram.inspector.key';
const PAGE_SIZE = 20;
const $ = (sel) => document.querySelector(sel);

/** An element with attributes (on* are listeners) and children (nodes or text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c != null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
  }
}

/** One API call with the tab's key; answers the envelope's data. */
async function api(method, path, body) {
  const headers = { authorization: `Bearer ${sessionStorage.getItem(KEY) ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { message: text };
  }
  if (!res.ok) throw new ApiError(res.status, json);
  return json.data;
}

function say(text, isError = false) {
  const s = $('#status');
  s.textContent = text;
  s.classList.toggle('error', isError);
}

/** Runs an action from a click or submit, reporting its failure in the status line. */
function guard(fn) {
  return async (ev) => {
    ev?.preventDefault?.();
    try {
      await fn(ev);
    } catch (err) {
      say(err instanceof ApiError && err.status === 401 ? 'The key was refused.' : err.message, true);
    }
  };
}

const when = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '');
const score = (x) => (typeof x === 'number' ? x.toFixed(3) : '');

// --- connection -------------------------------------------------------------------------

async function connect() {
  await api('GET', '/api/v2/tasks/stats');
  $('#tabs').hidden = false;
  $('#disconnect').hidden = false;
  $('#key').value = '';
  $('#key').placeholder = 'connected';
  say('Connected.');
  show('memories');
}

function disconnect() {
  sessionStorage.removeItem(KEY);
  for (const id of ['#tabs', '#memories', '#search', '#kb', '#tasks', '#disconnect']) $(id).hidden = true;
  $('#key').placeholder = 'engram_…';
  say('Disconnected.');
}

function show(tab) {
  for (const b of document.querySelectorAll('#tabs button'))
    b.setAttribute('aria-pressed', String(b.dataset.tab === tab));
  for (const id of ['memories', 'search', 'kb', 'tasks']) $(`#${id}`).hidden = id !== tab;
  if (tab === 'memories') return loadOwners();
  if (tab === 'kb') return loadKbs();
  if (tab === 'tasks') return loadTasks();
}

// --- memories ---------------------------------------------------------------------------

const KINDS = {
  episodes: { type: 'episode', owner: 'user_id', list: 'episodes', one: 'episode', render: episodeCard },
  profile: { type: 'profile', owner: 'user_id', list: 'profiles', one: 'profile', render: profileCard },
  cases: { type: 'agent_case', owner: 'agent_id', list: 'agent_cases', one: 'agent case', render: caseCard },
  skills: {
    type: 'agent_skill',
    owner: 'agent_id',
    list: 'agent_skills',
    one: 'agent skill',
    render: skillCard,
  },
};

// A view answered after the user has moved on (another kind, another owner, another page)
// is dropped: only the latest request of each list may draw.
let ownersSeq = 0;
let itemsSeq = 0;

async function loadOwners() {
  const kind = $('#kind').value;
  const seq = ++ownersSeq;
  itemsSeq++;
  // the previous kind's owners go at once, so no click can reach them while this loads
  $('#owners').replaceChildren();
  $('#items').replaceChildren();
  const data = await api('GET', `/api/v2/inspect/owners?kind=${kind}&page_size=200`);
  if (seq !== ownersSeq) return;
  const ul = $('#owners');
  ul.replaceChildren(
    ...data.items.map((o) =>
      h(
        'li',
        {},
        h(
          'button',
          { type: 'button', class: 'owner', onclick: guard(() => loadItems(kind, o, 1)) },
          o.owner,
          h('small', {}, ` ${o.app_id}/${o.project_id}`),
        ),
      ),
    ),
  );
  if (data.items.length === 0) ul.append(h('li', { class: 'empty' }, 'No memories of this kind yet.'));
}

async function loadItems(kind, owner, page) {
  const k = KINDS[kind];
  const seq = ++itemsSeq;
  const data = await api('POST', '/api/v2/memory/get', {
    app_id: owner.app_id,
    project_id: owner.project_id,
    memory_type: k.type,
    [k.owner]: owner.owner,
    page,
    page_size: PAGE_SIZE,
  });
  const items = data[k.list];
  const pages = Math.max(1, Math.ceil(data.total_count / PAGE_SIZE));
  const reload = () => loadItems(kind, owner, page);
  const noun = data.total_count === 1 ? k.one : k.list.replace('_', ' ');
  const view = h(
    'div',
    {},
    h(
      'h2',
      {},
      `${owner.owner} `,
      h('small', {}, `${owner.app_id}/${owner.project_id} · ${data.total_count} ${noun}`),
    ),
    ...items.map((it) => k.render(it, reload)),
    pages > 1
      ? h(
          'nav',
          { class: 'pager' },
          h(
            'button',
            { type: 'button', disabled: page <= 1, onclick: guard(() => loadItems(kind, owner, page - 1)) },
            '‹ newer',
          ),
          ` page ${page} of ${pages} `,
          h(
            'button',
            {
              type: 'button',
              disabled: page >= pages,
              onclick: guard(() => loadItems(kind, owner, page + 1)),
            },
            'older ›',
          ),
        )
      : null,
  );
  if (seq !== itemsSeq) return;
  $('#items').replaceChildren(view);
}

/** A "sources" toggle that loads the messages a memory was extracted from, under it. */
function sources(ids) {
  if (!ids?.length) return null;
  const box = h('div', { class: 'sources', hidden: true });
  const btn = h(
    'button',
    {
      type: 'button',
      class: 'link',
      onclick: guard(async () => {
        if (box.hidden && box.childElementCount === 0) {
          const data = await api('GET', `/api/v2/inspect/messages?ids=${ids.join(',')}`);
          box.append(...data.items.map(messageRow));
          if (data.items.length === 0)
            box.append(h('p', { class: 'empty' }, 'The source messages were deleted.'));
        }
        box.hidden = !box.hidden;
      }),
    },
    `${ids.length} source message${ids.length === 1 ? '' : 's'}`,
  );
  return h('div', {}, btn, box);
}

function messageRow(m) {
  const content = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
  return h(
    'div',
    { class: `message ${m.role}` },
    h(
      'span',
      { class: 'meta' },
      `${when(m.timestamp)} · ${m.session_id} · ${m.sender_name ?? m.sender_id} (${m.role})`,
    ),
    h('p', {}, content),
  );
}

/** ▲ / ▼ through /memory/feedback; a profile rates one item. */
function rate(type, id, itemId) {
  const send = (rating) =>
    guard(async () => {
      const body = { memory_type: type, memory_id: id, rating };
      if (itemId) body.item_id = itemId;
      await api('POST', '/api/v2/memory/feedback', body);
      say(`Rated ${rating}.`);
    });
  return h(
    'span',
    { class: 'rate' },
    h('button', { type: 'button', title: 'Rate positive', onclick: send('positive') }, '▲'),
    h('button', { type: 'button', title: 'Rate negative', onclick: send('negative') }, '▼'),
  );
}

function card(kind, id, ...body) {
  return h('article', { class: `card ${kind}`, 'data-id': id }, ...body);
}

function episodeCard(e, reload) {
  const edit = guard(async (ev) => {
    const art = ev.target.closest('article');
    const form = h(
      'form',
      { class: 'edit' },
      h('label', {}, 'Subject', h('input', { name: 'subject', value: e.subject })),
      h('label', {}, 'Summary', h('textarea', { name: 'summary', rows: 2 }, e.summary)),
      h('label', {}, 'Episode', h('textarea', { name: 'episode', rows: 6 }, e.episode)),
      h('button', { type: 'submit' }, 'Save'),
      h('button', { type: 'button', onclick: () => form.remove() }, 'Cancel'),
    );
    form.addEventListener(
      'submit',
      guard(async () => {
        const f = new FormData(form);
        const patch = {};
        for (const k of ['subject', 'summary', 'episode']) if (f.get(k) !== e[k]) patch[k] = f.get(k);
        if (Object.keys(patch).length === 0) return form.remove();
        await api('POST', '/api/v2/memory/update', {
          memory_type: 'episode',
          memory_id: e.id,
          patch,
          reason: { code: 'other', note: 'edited in the inspector' },
        });
        say('Episode saved.');
        await reload();
      }),
    );
    art.append(form);
  });
  const del = guard(async () => {
    if (!confirm(`Delete the episode "${e.subject}"?`)) return;
    await api('POST', '/api/v2/memory/delete_by_ids', { memory_type: 'episode', memory_ids: [e.id] });
    say('Episode deleted.');
    await reload();
  });
  return card(
    'episode',
    e.id,
    h('h3', {}, e.subject, ' ', h('small', {}, `${when(e.timestamp)} · session ${e.session_id ?? '—'}`)),
    h('p', { class: 'summary' }, e.summary),
    h('p', { class: 'episode-text' }, e.episode),
    e.atomic_facts.length
      ? h(
          'ul',
          { class: 'facts' },
          e.atomic_facts.map((f) => h('li', {}, f.content, sources(f.source_message_ids))),
        )
      : null,
    e.tags.length ? h('p', { class: 'tags' }, e.tags.join(' · ')) : null,
    sources(e.source_message_ids),
    h(
      'div',
      { class: 'actions' },
      rate('episode', e.id),
      h('button', { type: 'button', onclick: edit }, 'Edit'),
      h('button', { type: 'button', class: 'danger', onclick: del }, 'Delete'),
      e.edited_at ? h('small', {}, ` edited ${when(e.edited_at)}`) : null,
    ),
  );
}

function profileCard(p) {
  const item = (it) =>
    h(
      'li',
      { 'data-item-id': it.item_id },
      it.category || it.trait ? h('b', {}, `${it.category ?? it.trait}: `) : null,
      it.description,
      h('small', {}, ` updated ${when(it.updated_at)} `),
      rate('profile', p.id, it.item_id),
      sources(it.source_message_ids),
    );
  const d = p.profile_data;
  return card(
    'profile',
    p.id,
    h('h3', {}, `Profile of ${p.user_id}`, ' ', h('small', {}, `updated ${when(p.updated_at)}`)),
    d.summary ? h('p', { class: 'summary' }, d.summary) : null,
    h('h4', {}, 'Explicit'),
    h('ul', {}, d.explicit_info.map(item)),
    h('h4', {}, 'Implicit traits'),
    h('ul', {}, d.implicit_traits.map(item)),
  );
}

function caseCard(c) {
  return card(
    'agent_case',
    c.id,
    h(
      'h3',
      {},
      c.task_intent,
      ' ',
      h('small', {}, `${when(c.timestamp)} · quality ${score(c.quality_score)}`),
    ),
    h('p', {}, c.approach),
    c.key_insight ? h('p', { class: 'summary' }, `Insight: ${c.key_insight}`) : null,
    sources(c.source_message_ids),
    h('div', { class: 'actions' }, rate('agent_case', c.id)),
  );
}

function skillCard(s) {
  return card(
    'agent_skill',
    s.id,
    h(
      'h3',
      {},
      s.name,
      ' ',
      h(
        'small',
        {},
        `confidence ${score(s.confidence)} · maturity ${score(s.maturity_score)} · from ${s.source_case_ids.length} cases`,
      ),
    ),
    h('p', { class: 'summary' }, s.description),
    h('pre', {}, s.content),
    sources(s.source_message_ids),
    h('div', { class: 'actions' }, rate('agent_skill', s.id)),
  );
}

// --- search playground ------------------------------------------------------------------

async function runSearch() {
  const f = new FormData($('#search-form'));
  const base = {
    app_id: f.get('app_id'),
    project_id: f.get('project_id'),
    [f.get('owner_field')]: f.get('owner'),
    query: f.get('query'),
    include_profile: f.get('include_profile') === 'on',
  };
  await sideBySide($('#search-results'), f.getAll('method'), async (method) =>
    hits(await api('POST', '/api/v2/memory/search', { ...base, method })),
  );
}

/** Runs one search per method in parallel, each answer filling its own column of `out`. */
async function sideBySide(out, methods, run) {
  if (methods.length === 0) throw new Error('Pick at least one method.');
  out.replaceChildren(
    ...methods.map((m) => h('div', { class: 'column', 'data-method': m }, h('h3', {}, m), h('p', {}, '…'))),
  );
  say('Searching…');
  await Promise.all(
    methods.map(async (method) => {
      const col = out.querySelector(`[data-method="${method}"]`);
      try {
        col.replaceChildren(h('h3', {}, method), ...(await run(method)));
      } catch (err) {
        col.replaceChildren(h('h3', {}, method), h('p', { class: 'error' }, err.message));
      }
    }),
  );
  say(`Searched with ${methods.join(', ')}.`);
}

/** A column's body: one line about the run, then the ranked hits. */
const hitList = (meta, rows) => [
  h('p', { class: 'meta' }, `${meta} · ${rows.length} hits`),
  rows.length ? h('ol', { class: 'hits' }, rows) : h('p', { class: 'empty' }, 'No hits.'),
];

function hits(d) {
  const meta = d.metadata;
  const rows = [
    ...d.episodes.map((e) => hit('episode', e.score, e.subject, e.summary, e.source_message_ids)),
    ...d.profiles.map((p) =>
      hit('profile', p.score, p.user_id, p.profile_data.summary, p.source_message_ids),
    ),
    ...d.agent_cases.map((c) => hit('case', c.score, c.task_intent, c.approach, c.source_message_ids)),
    ...d.agent_skills.map((s) => hit('skill', s.score, s.name, s.description, s.source_message_ids)),
    ...d.unprocessed_messages.map((m) =>
      hit('message', m.score, m.sender_name ?? m.sender_id, typeof m.content === 'string' ? m.content : '', [
        m.id,
      ]),
    ),
  ];
  return hitList(
    `ran ${meta.method}${meta.degraded ? ` (degraded: ${meta.degraded_reason ?? 'yes'})` : ''}`,
    rows,
  );
}

function hit(kind, s, title, text, ids) {
  return h(
    'li',
    {},
    h('span', { class: 'score' }, score(s)),
    ' ',
    h('span', { class: 'kind' }, kind),
    ' ',
    h('b', {}, title),
    h('p', {}, text),
    sources(ids),
  );
}

// --- knowledge bases --------------------------------------------------------------------

const KB_API = '/api/v2/knowledge_bases';
const kbPath = (...ids) => [KB_API, ...ids.map(encodeURIComponent)].join('/');

/** Lists the knowledge bases; opens `selected` (a category of it) if given. */
async function loadKbs(selected, categoryId) {
  const data = await api('GET', `${KB_API}?page_size=100`);
  $('#kbs').replaceChildren(
    ...data.knowledge_bases.map((kb) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'owner',
            'data-kb-id': kb.id,
            onclick: guard(() => openKb(kb.id)),
          },
          kb.name,
          h('small', {}, ` ${kb.document_count} doc${kb.document_count === 1 ? '' : 's'}`),
        ),
      ),
    ),
  );
  if (data.knowledge_bases.length === 0)
    $('#kbs').append(h('li', { class: 'empty' }, 'No knowledge bases yet.'));
  if (selected) await openKb(selected, categoryId);
  else $('#kb-view').replaceChildren();
}

async function createKb() {
  const form = $('#kb-create');
  const kb = await api('POST', KB_API, { name: new FormData(form).get('name') });
  form.reset();
  say(`Knowledge base "${kb.name}" created.`);
  await loadKbs(kb.id);
}

/** One knowledge base: its categories, documents (with their topic trees), ingest and search. */
async function openKb(kbId, categoryId) {
  const [kb, cats, docs] = await Promise.all([
    api('GET', kbPath(kbId)),
    api('GET', kbPath(kbId, 'categories')),
    api(
      'GET',
      `${kbPath(kbId, 'documents')}?page_size=100${categoryId ? `&category_id=${encodeURIComponent(categoryId)}` : ''}`,
    ),
  ]);
  const reopen = () => loadKbs(kbId, categoryId);
  const catButton = (id, label) =>
    h(
      'button',
      {
        type: 'button',
        'data-category-id': id ?? '',
        'aria-pressed': String((id ?? '') === (categoryId ?? '')),
        onclick: guard(() => openKb(kbId, id)),
      },
      label,
    );
  const tree = h('div', { id: 'kb-doc' }, h('p', { class: 'empty' }, 'Pick a document to see its topics.'));
  $('#kb-view').replaceChildren(
    h(
      'div',
      {},
      h(
        'h2',
        {},
        `${kb.name} `,
        h(
          'small',
          {},
          `${kb.document_count} document${kb.document_count === 1 ? '' : 's'} · created ${when(kb.created_at)}`,
        ),
      ),
      kb.description ? h('p', { class: 'summary' }, kb.description) : null,
      h(
        'nav',
        { class: 'categories', 'aria-label': 'Categories' },
        catButton(undefined, 'All'),
        cats.categories.map((c) => catButton(c.id, `${c.name} (${c.document_count})`)),
      ),
      docTable(kbId, docs, tree, reopen),
      h('div', { class: 'kb-grid' }, tree, ingestForm(kbId, cats.categories, reopen)),
      kbSearchForm(kbId),
    ),
  );
}

function docTable(kbId, docs, tree, reopen) {
  if (docs.documents.length === 0) return h('p', { class: 'empty' }, 'No documents here yet.');
  const del = (d) =>
    guard(async () => {
      if (!confirm(`Delete the document "${d.title}" and its topics?`)) return;
      await api('DELETE', kbPath(kbId, 'documents', d.id));
      say('Document deleted.');
      await reopen();
    });
  return h(
    'table',
    { id: 'kb-docs' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Title', 'Category', 'Status', 'Topics', 'Source', 'Updated', ''].map((t) => h('th', {}, t)),
      ),
    ),
    h(
      'tbody',
      {},
      docs.documents.map((d) =>
        h(
          'tr',
          { 'data-doc-id': d.id, class: d.status },
          h(
            'td',
            {},
            h(
              'button',
              { type: 'button', class: 'link', onclick: guard(() => showTopics(kbId, d, tree)) },
              d.title,
            ),
          ),
          h('td', {}, d.category_name ?? ''),
          h('td', {}, d.status),
          h('td', {}, String(d.topic_count)),
          h('td', {}, [d.source_type, d.source_name].filter(Boolean).join(' · ')),
          h('td', { class: 'when' }, when(d.updated_at)),
          h('td', {}, h('button', { type: 'button', class: 'danger', onclick: del(d) }, 'Delete')),
        ),
      ),
    ),
  );
}

/** A document's topics as a tree (the list comes in document order, parents first). */
async function showTopics(kbId, doc, box) {
  const data = await api('GET', `${kbPath(kbId, 'documents', doc.id, 'topics')}?include=content`);
  const lists = new Map();
  const root = h('ul', { class: 'topics' });
  for (const t of data.topics) {
    const children = h('ul', {});
    const detail = h('div', { class: 'topic-detail', hidden: true });
    const li = h(
      'li',
      { 'data-topic-id': t.id, 'data-type': t.type },
      h(
        'button',
        { type: 'button', class: 'topic', onclick: guard(() => toggleTopic(kbId, t, detail)) },
        t.name,
      ),
      h('small', {}, ` ${t.type}${t.tag_ids.length ? ` · ${t.tag_ids.join(', ')}` : ''}`),
      detail,
      children,
    );
    lists.set(t.id, children);
    (lists.get(t.parent_id) ?? root).append(li);
  }
  box.replaceChildren(
    h(
      'div',
      {},
      h('h3', {}, doc.title, ' ', h('small', {}, `${data.topics.length - 1} topics`)),
      doc.summary ? h('p', { class: 'summary' }, doc.summary) : null,
      root,
    ),
  );
}

/** Opens a topic: its summary, content, tags (editable) and labels, read fresh from the API. */
async function toggleTopic(kbId, t, box) {
  if (!box.hidden) {
    box.hidden = true;
    return;
  }
  const d = await api('GET', kbPath(kbId, 'documents', t.doc_id, 'topics', t.id));
  const tags = h('input', { name: 'tag_ids', value: d.tag_ids.join(', '), 'aria-label': 'Tags' });
  const form = h(
    'form',
    { class: 'tags-edit' },
    h('label', {}, 'Tags ', tags),
    h('button', { type: 'submit' }, 'Save tags'),
  );
  form.addEventListener(
    'submit',
    guard(async () => {
      const ids = tags.value
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      const r = await api('POST', `${kbPath(kbId, 'documents', t.doc_id, 'topics', t.id)}/tag/replace`, {
        tag_ids: ids,
        version: d.version,
      });
      say(
        `Tags saved (${r.tag_ids.length}${r.truncated ? `, ${r.dropped_count} dropped over ${r.limit}` : ''}).`,
      );
      box.hidden = true;
      await toggleTopic(kbId, t, box);
    }),
  );
  box.replaceChildren(
    h(
      'div',
      {},
      d.summary ? h('p', { class: 'summary' }, d.summary) : null,
      d.content ? h('pre', { class: 'content' }, d.content) : null,
      d.labels.length ? h('p', { class: 'tags' }, `labels: ${d.labels.join(' · ')}`) : null,
      form,
      h('small', {}, `version ${d.version} · updated ${when(d.updated_at)}`),
    ),
  );
  box.hidden = false;
}

/** Add a document from pasted text or a file; follow its ingest task until it ends. */
function ingestForm(kbId, categories, reopen) {
  const form = h(
    'form',
    { id: 'kb-ingest', class: 'edit' },
    h('h4', {}, 'Add a document'),
    h('label', {}, 'Title', h('input', { name: 'title', maxlength: 500, required: true })),
    h(
      'label',
      {},
      'Category',
      h(
        'select',
        { name: 'category_id' },
        h('option', { value: '' }, 'none'),
        categories.map((c) => h('option', { value: c.id }, c.name)),
      ),
    ),
    h('label', {}, 'Text (Markdown)', h('textarea', { name: 'text', rows: 5 })),
    h(
      'label',
      {},
      'or a file (.md .txt .html .docx .pdf)',
      h('input', { name: 'file', type: 'file', accept: '.md,.txt,.html,.htm,.docx,.pdf' }),
    ),
    h('button', { type: 'submit' }, 'Ingest'),
    h('p', { class: 'progress', role: 'status' }),
  );
  form.addEventListener(
    'submit',
    guard(async () => {
      const f = new FormData(form);
      const file = f.get('file');
      const line = form.querySelector('.progress');
      line.textContent = 'Sending…';
      const content =
        file && file.size > 0
          ? { type: 'text', base64: await base64(file), name: file.name }
          : { type: 'text', text: f.get('text') };
      const r = await api('POST', kbPath(kbId, 'documents'), {
        title: f.get('title'),
        category_id: f.get('category_id'),
        content,
      });
      form.reset();
      const task = await follow(r.task_id, line);
      // the new document shows once the view is rebuilt (unless another one is open by now)
      if (task.status !== 'success' || !form.isConnected) return;
      await reopen();
      $('#kb-ingest .progress').textContent = line.textContent;
    }),
  );
  return form;
}

async function base64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Polls a task, showing its state and progress in `line`, until it succeeds or fails. */
async function follow(taskId, line) {
  for (;;) {
    const t = await api('GET', `/api/v2/tasks/${encodeURIComponent(taskId)}`);
    const p = t.progress ? ` · ${t.progress.done}/${t.progress.total} topics` : '';
    line.textContent = `Task ${t.id}: ${t.status}${p}${t.error ? ` · ${t.error}` : ''}`;
    line.classList.toggle('error', t.status === 'failed');
    if (t.status === 'success' || t.status === 'failed') return t;
    await new Promise((res) => setTimeout(res, 300));
  }
}

function kbSearchForm(kbId) {
  const out = h('div', { id: 'kb-search-results', class: 'columns' });
  const form = h(
    'form',
    { id: 'kb-search-form' },
    h('label', { class: 'wide' }, 'Search topics ', h('input', { name: 'query', required: true })),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Methods'),
      ['keyword', 'vector', 'hybrid'].map((m) =>
        h('label', {}, h('input', { type: 'checkbox', name: 'method', value: m, checked: true }), ` ${m}`),
      ),
    ),
    h('label', {}, 'top_k ', h('input', { name: 'top_k', type: 'number', min: 1, max: 100, value: 10 })),
    h('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener(
    'submit',
    guard(async () => {
      const f = new FormData(form);
      const body = { query: f.get('query'), top_k: Number(f.get('top_k')) };
      await sideBySide(out, f.getAll('method'), async (method) => {
        const d = await api('POST', kbPath(kbId, 'search'), { ...body, method });
        const rows = d.hits.map((t) =>
          h(
            'li',
            { 'data-topic-id': t.id },
            h('span', { class: 'score' }, score(t.score)),
            ' ',
            h('span', { class: 'kind' }, t.retrieval_method),
            ' ',
            h('b', {}, t.name),
            h(
              'small',
              {},
              ` in ${t.document.title}${t.tags.length ? ` · ${t.tags.map((x) => x.name ?? x.id).join(', ')}` : ''}`,
            ),
            h('p', {}, t.summary ?? ''),
          ),
        );
        return hitList(`${d.total} topics in ${Math.round(d.took_ms)} ms`, rows);
      });
    }),
  );
  return h('div', { class: 'kb-search' }, h('h3', {}, 'Search this knowledge base'), form, out);
}

// --- tasks ------------------------------------------------------------------------------

async function loadTasks() {
  const status = new FormData($('#task-form')).get('status');
  const [stats, list] = await Promise.all([
    api('GET', '/api/v2/tasks/stats'),
    api('GET', `/api/v2/tasks?page_size=100${status ? `&status=${status}` : ''}`),
  ]);
  $('#task-stats').textContent =
    `${when(stats.start)} – ${when(stats.end)}: ` +
    Object.entries(stats.by_status)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
  $('#task-list tbody').replaceChildren(
    ...list.items.map((t) =>
      h(
        'tr',
        { class: t.status },
        h('td', {}, when(t.created_at)),
        h('td', {}, h('code', {}, t.id)),
        h('td', {}, t.task_type),
        h('td', {}, t.status),
        h('td', {}, when(t.finished_at)),
        h('td', {}, t.error ? `${t.error_code ?? ''} ${t.error}` : ''),
      ),
    ),
  );
}

// --- wiring -----------------------------------------------------------------------------

$('#key-form').addEventListener(
  'submit',
  guard(async () => {
    sessionStorage.setItem(KEY, $('#key').value.trim());
    try {
      await connect();
    } catch (err) {
      sessionStorage.removeItem(KEY);
      throw err;
    }
  }),
);
$('#disconnect').addEventListener('click', disconnect);
for (const b of document.querySelectorAll('#tabs button'))
  b.addEventListener(
    'click',
    guard(() => show(b.dataset.tab)),
  );
$('#kind').addEventListener('change', guard(loadOwners));
$('#search-form').addEventListener('submit', guard(runSearch));
$('#task-form').addEventListener('submit', guard(loadTasks));
$('#kb-create').addEventListener('submit', guard(createKb));
if (sessionStorage.getItem(KEY)) guard(connect)();
