"""The page's own styles and script: card styles, the compact mobile layout, and the small
script that scrolls a new answer's start into view, keeps the <details> a reader opened or
closed across re-renders, copies plain text, and opens unit links in the reading view."""

from __future__ import annotations

import json

#: Styles for the cards, the reading view and the layout (passed to the Gradio app's ``css``).
CSS = """
.qa-reply { min-width: 0; }
.qa-answer { border-left: 4px solid #b45309; padding: 6px 10px; margin: 4px 0 10px; background: #fffbeb; }
.qa-answer ol { margin: 0; padding-left: 1.4em; }
.qa-answer li { margin: 3px 0 6px; }
.qa-ev { font-size: 1.05em; }
.qa-cite { display: block; color: #57534e; font-size: 0.82em; }
.qa-tools { text-align: right; margin-top: 2px; }
.qa-aid { color: #44403c; font-size: 0.86em; margin: 4px 0 2px; border-top: 1px dashed #e7e5e4; padding-top: 4px; }
.qa-aid p { margin: 2px 0; }
.qa-aid-label { font-weight: 600; }
.qa-aid-note { color: #78716c; }
.qa-copy { font-size: 0.78em; line-height: 1.5; border: 1px solid #d6d3d1; border-radius: 4px; background: #fff;
  color: #44403c; padding: 0 6px; margin-left: 6px; cursor: pointer; white-space: nowrap; }
.qa-copy:hover { background: #f5f5f4; }
.qa-copy-src { display: none; }
.qa-notfound { border-left-color: #6b7280; background: #f3f4f6; }
.qa-nearest { color: #6b7280; font-size: 0.9em; margin: 8px 0 4px; }
.qa-cards > summary { cursor: pointer; color: #57534e; font-size: 0.85em; margin: 6px 0 2px; }
.qa-card { border: 1px solid #d6d3d1; border-radius: 8px; margin: 8px 0; padding: 8px 10px; background: #fff; }
.qa-head { font-size: 0.82em; color: #57534e; margin-bottom: 4px; }
summary.qa-head { cursor: pointer; }
.qa-rank { font-weight: 600; color: #1c1917; }
.qa-unit-link, .qa-id { font-family: monospace; background: #f5f5f4; padding: 0 4px; border-radius: 3px; }
a.qa-unit-link { color: #1d4ed8; text-decoration: none; }
a.qa-unit-link:hover { text-decoration: underline; }
.qa-stage { color: #92400e; }
.qa-row { display: flex; gap: 12px; flex-wrap: wrap; }
.qa-main { flex: 3 1 320px; min-width: 0; }
.qa-side { flex: 2 1 220px; min-width: 0; border-left: 3px solid #7c3aed; padding-left: 8px; background: #faf5ff; }
.qa-layer { margin: 4px 0; line-height: 1.7; }
.qa-label { display: inline-block; font-weight: bold; font-size: 0.8em; border-radius: 3px; padding: 0 5px; margin-right: 6px; color: #fff; }
.qa-jing { font-size: 1.2em; font-weight: 600; color: #1c1917; }
.qa-jing .qa-label { background: #991b1b; }
.qa-zhu { color: #1e3a8a; }
.qa-zhu .qa-label { background: #1d4ed8; }
.qa-shu { color: #365314; font-size: 0.95em; }
.qa-shu .qa-label { background: #4d7c0f; }
.qa-shu summary { cursor: pointer; }
.qa-shu p { margin: 2px 0 6px; }
.qa-shu-head { color: #78716c; }
.qa-xiyi { color: #4c1d95; }
.qa-xiyi .qa-label { background: #6d28d9; }
.qa-notes { color: #78716c; font-size: 0.85em; }
.qa-corr { color: #9a3412; font-size: 0.85em; }
.qa-jiaodu { text-decoration: underline dotted #b91c1c; text-underline-offset: 3px; background: #fef2f2; cursor: help; }
.qa-parallel { font-size: 0.88em; color: #0f766e; }
.qa-parallel .qa-label { background: #0f766e; }
.qa-why { color: #78716c; }
.qa-lead { font-weight: 600; margin-bottom: 4px; }
.qa-scope { margin-top: 6px; font-size: 0.9em; }
.qa-outline details { margin: 2px 0 2px 1em; }
.qa-outline summary { cursor: pointer; }
.qa-outline .qa-stmt { color: #78716c; font-size: 0.85em; }
.qa-coverage-text { white-space: pre-wrap; font-size: 0.9em; }
.qa-card mark, .qa-answer mark, .qa-read mark { background: #fde68a; color: inherit; padding: 0; }
.qa-user { white-space: pre-wrap; }
.qa-answer-only #qa-chat .qa-cards, .qa-answer-only #qa-chat .qa-nearest { display: none; }
/* the reading view */
.qa-read-title { font-size: 1.05em; font-weight: 600; margin: 2px 0 6px; }
.qa-read-title .qa-pos { font-weight: normal; color: #78716c; font-size: 0.85em; margin-left: 8px; }
.qa-read-ctx { color: #78716c; border-left: 3px solid #e7e5e4; padding: 2px 8px; margin: 6px 0; font-size: 0.95em; }
.qa-read-ctx .qa-head { margin: 0; }
.qa-read .qa-card { border-color: #b45309; border-width: 2px; }
.qa-read-link { font-size: 0.82em; color: #57534e; }
.qa-contents ul { margin: 4px 0 8px; padding-left: 1.2em; line-height: 1.9; }
#qa-read-nav { align-items: center; flex-wrap: nowrap !important; gap: 6px; }
#qa-read-nav > * { flex: 0 0 auto !important; width: auto !important; }
#qa-read-nav > #qa-unit { flex: 1 1 auto !important; min-width: 0 !important; }
#qa-read-nav button { white-space: nowrap; }
#qa-chat { padding-top: 4px; }
#qa-title h2 { margin: 0 0 2px; }
#qa-title p { margin: 0; color: #57534e; font-size: 0.9em; }
#qa-toolbar { align-items: center; gap: 6px 10px; flex-wrap: wrap !important; }
#qa-toolbar > * { flex: 0 1 auto !important; width: auto !important; min-width: 0 !important; }
#qa-toolbar button { white-space: nowrap; }
#qa-script .wrap { flex-wrap: nowrap; }
#qa-send { white-space: nowrap; }
#qa-chat .message-row.bot-row { padding-top: 6px; }
#qa-chat .message-row.user-row { padding-top: 4px !important; padding-bottom: 4px !important; padding-right: 40px !important; }
#qa-chat .message-row.user-row .message { padding-top: 4px !important; padding-bottom: 4px !important; }
@media (max-width: 640px) {
  #qa-title h2 { font-size: 1.05em; }
  #qa-title p { display: none; }
  #qa-chat .message-row { padding: 4px 2px !important; }
  #qa-chat .message { padding: 4px !important; }
  .qa-answer { padding: 4px 6px; }
  .qa-answer ol { padding-left: 1.2em; }
  .qa-cite { font-size: 0.72em; line-height: 1.4; }
  .qa-cite .qa-where, .qa-cite .qa-src { display: none; }
  .qa-copy { font-size: 0.7em; padding: 0 4px; margin-left: 4px; }
  .qa-head { font-size: 0.72em; line-height: 1.35; }
  .qa-head .qa-src, .qa-head .qa-work { display: none; }
  .qa-card { padding: 6px; }
  .qa-row { gap: 6px; }
  .qa-main, .qa-side { flex-basis: 100%; }
  .qa-side { border-left: none; border-top: 3px solid #7c3aed; padding: 4px 0 0; }
  .qa-jing { font-size: 1.1em; }
  #qa-input-row { flex-wrap: nowrap !important; gap: 6px; }
  #qa-read-go { display: none !important; }  /* Enter in the box reads; the script clicks it when hidden */
  #qa-toolbar { gap: 4px 6px !important; }
}
"""

#: Styles for the page around the app, which Gradio's ``css`` cannot reach (it prefixes every
#: rule with the app's container): the side padding on a phone.
OUTER_CSS = "@media (max-width: 640px) { .gradio-container .main.app { padding: 4px 6px !important; } }"

#: Installed once on page load (``demo.load(js=...)``). It never builds markup from text. The
#: chat's sanitizer drops data-* attributes, so what it needs travels in classes and hidden
#: children: a reply's turn as ``qa-turn-N``, a <details>' key as ``qa-k-…``, a copy button's
#: plain text in its ``.qa-copy-src`` child, a unit link's id in its ``?unit=`` address.
JS = r"""
() => {
  if (window.qaInstalled) return;
  window.qaInstalled = true;
  const style = document.createElement('style');
  style.textContent = __OUTER_CSS__;
  document.head.appendChild(style);
  const openState = new Map();  // details key class -> open, as the reader left it
  const keyOf = (el) => { for (const c of el.classList) if (c.startsWith('qa-k-')) return c; return null; };
  const turnOf = (el) => { for (const c of el.classList) if (c.startsWith('qa-turn-')) return +c.slice(8); return 0; };
  let lastTurn = 0, raf = 0;

  function fallbackCopy(text) {
    const ta = document.createElement('textarea');
    ta.value = text; ta.setAttribute('readonly', ''); ta.style.position = 'fixed'; ta.style.opacity = '0';
    document.body.appendChild(ta); ta.select();
    let ok = false; try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    ta.remove(); return ok;
  }
  function copy(text, btn) {
    const done = () => {
      if (!btn) return;
      const old = btn.dataset.label || btn.textContent; btn.dataset.label = old;
      btn.textContent = '✓ 已複製 copied'; setTimeout(() => { btn.textContent = old; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => { if (fallbackCopy(text)) done(); });
    } else if (fallbackCopy(text)) { done(); }
  }
  window.qaCopy = copy;

  function scrollBox(el) {
    let p = el.parentElement;
    while (p && p !== document.body) {
      const o = getComputedStyle(p).overflowY;
      if ((o === 'auto' || o === 'scroll') && p.scrollHeight > p.clientHeight + 1) return p;
      p = p.parentElement;
    }
    return null;
  }
  function showStart(el) {
    // the chat scrolls inside its own box: put the question and the start of its answer at
    // the top of that box, then make sure the box is on screen
    const row = el.closest('.message-row');
    const prev = row && row.previousElementSibling;
    const top = (prev && prev.querySelector('.qa-user')) ? prev : el;
    const box = scrollBox(el);
    if (box) box.scrollTop += top.getBoundingClientRect().top - box.getBoundingClientRect().top - 4;
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight - 120) window.scrollBy(0, r.top - 100);
  }
  function sync() {
    document.querySelectorAll('details[class*="qa-k-"]').forEach(d => {
      const k = keyOf(d);
      if (k && openState.has(k)) { const v = openState.get(k); if (d.open !== v) d.open = v; }
    });
    let max = 0, newest = null;
    document.querySelectorAll('#qa-chat .qa-reply').forEach(r => {
      const t = turnOf(r); if (t >= max) { max = t; newest = r; }
    });
    if (max > lastTurn && newest) {
      lastTurn = max; showStart(newest);
      setTimeout(() => showStart(newest), 120);  // again, after late layout
    } else if (max < lastTurn) {  // the conversation was cleared
      lastTurn = max; openState.clear();
    }
  }
  new MutationObserver(() => { cancelAnimationFrame(raf); raf = requestAnimationFrame(sync); })
    .observe(document.body, { childList: true, subtree: true });

  window.qaOpenUnit = (id) => {
    const input = document.querySelector('#qa-unit textarea, #qa-unit input');
    const go = document.querySelector('#qa-read-go');
    if (!input || !go) return false;
    input.value = id;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    setTimeout(() => go.click(), 50);
    window.scrollTo(0, 0);
    return true;
  };
  window.qaSetUrl = (id) => {
    const url = new URL(window.location.href);
    if (id) url.searchParams.set('unit', id); else url.searchParams.delete('unit');
    history.replaceState(null, '', url);
  };

  document.addEventListener('click', (ev) => {
    const t = ev.target;
    if (!(t instanceof Element)) return;
    const b = t.closest('button.qa-copy');
    if (b) {
      ev.preventDefault(); ev.stopPropagation();
      const src = b.querySelector('.qa-copy-src');
      copy(src ? src.textContent : '', b.querySelector('.qa-copy-label') || b);
      return;
    }
    const a = t.closest('a.qa-unit-link');
    if (a) {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;  // a new tab, as asked
      const id = new URL(a.href, window.location.href).searchParams.get('unit') || '';
      if (window.qaOpenUnit(id)) { ev.preventDefault(); ev.stopPropagation(); }
      return;
    }
    const s = t.closest('summary');
    const d = s && s.parentElement;
    if (d && d.tagName === 'DETAILS' && keyOf(d)) openState.set(keyOf(d), !d.open);
  }, true);
}
"""

JS = JS.replace("__OUTER_CSS__", json.dumps(OUTER_CSS))

__all__ = ["CSS", "JS", "OUTER_CSS"]
