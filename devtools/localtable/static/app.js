// The local table's page: the group chat and this browser's private chat with the bot.
// This browser is one user: a seat (id, secret, name) kept in localStorage.
"use strict";

const SEAT_KEY = "coachride.seat";
const state = { seat: null, texts: {}, menus: { group: [], private: [] }, bot: {}, seq: 0, boot: null };
const pending = new Map(); // callback query id -> {key, chat}: the pressed button and its chat
const early = new Map(); // answers that came before the press's own reply (the bot is quick)
const panes = {};

function $(selector, root = document) { return root.querySelector(selector); }

async function call(name, params, method = "POST") {
  // the seat goes in headers, never in a URL (logged, kept in the history)
  const seat = state.seat ? { "X-Seat-Id": String(state.seat.id), "X-Seat-Secret": state.seat.secret } : {};
  let response;
  if (method === "GET") {
    response = await fetch(`/api/${name}?${new URLSearchParams(params)}`, { headers: seat });
  } else {
    response = await fetch(`/api/${name}`, {
      method: "POST", headers: { "Content-Type": "application/json", ...seat }, body: JSON.stringify(params),
    });
  }
  const body = await response.json();
  if (!response.ok) {
    const error = new Error(body.description || response.statusText);
    error.status = response.status;
    throw error;
  }
  return body;
}

function t(key) { return state.texts[key] || key; }

function applyTexts() {
  document.title = t("page_title");
  document.documentElement.lang = state.lang;
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = t(el.dataset.text);
  for (const el of document.querySelectorAll("[data-placeholder]")) el.placeholder = t(el.dataset.placeholder);
  for (const el of document.querySelectorAll("[data-label]")) el.setAttribute("aria-label", t(el.dataset.label));
  $("#bot-name").textContent = state.bot.name;
}

// -- taking a seat ---------------------------------------------------------------------------
function askName() {
  const dialog = $("#seat");
  const form = $("form", dialog);
  dialog.addEventListener("cancel", (event) => event.preventDefault());
  return new Promise((resolve) => {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = form.elements.name.value.trim();
      if (!name) return;
      dialog.close();
      resolve(name);
    });
    dialog.showModal();
    form.elements.name.focus();
  });
}

async function takeSeat() {
  const lang = (navigator.language || "en").toLowerCase();
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(SEAT_KEY) || "null"); } catch { saved = null; }
  if (saved && saved.id && saved.secret && saved.name) {
    try {
      state.seat = saved;
      // the table's file may have been reset: then the seat is a new one, with a new id
      state.seat = { ...saved, ...(await call("join", { name: saved.name, lang })) };
      localStorage.setItem(SEAT_KEY, JSON.stringify(state.seat));
      return;
    } catch (error) {
      if (error.status !== 403) throw error;
      state.seat = null; // the seat belongs to someone else now: ask again
    }
  }
  const name = await askName();
  state.seat = await call("join", { name, lang });
  localStorage.setItem(SEAT_KEY, JSON.stringify(state.seat));
}

// -- drawing messages ------------------------------------------------------------------------
// In the viewer's locale, as <tg-time> deadlines are (not "22:01" beside "until 10:01:20 PM").
function clock(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
}

// <tg-time unix="…" format="…">: shown in the viewer's own time zone and format, as Telegram's
// apps show a date-time entity. Format letters: r relative; w weekday, d/D short/long date,
// t/T short/long time. An empty format keeps the text the bot wrote.
function localTime(node) {
  const unix = Number(node.dataset.unix);
  const format = node.dataset.format || "";
  if (!format || !Number.isFinite(unix)) return;
  const at = new Date(unix * 1000);
  if (format === "r") {
    const seconds = Math.round(unix - Date.now() / 1000);
    const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
    const abs = Math.abs(seconds);
    node.textContent =
      abs < 60 ? rtf.format(seconds, "second")
      : abs < 3600 ? rtf.format(Math.round(seconds / 60), "minute")
      : abs < 86400 ? rtf.format(Math.round(seconds / 3600), "hour")
      : rtf.format(Math.round(seconds / 86400), "day");
    return;
  }
  const options = {};
  if (format.includes("w")) options.weekday = "long";
  if (format.includes("d")) options.dateStyle = "short";
  if (format.includes("D")) options.dateStyle = "long";
  if (format.includes("t")) options.timeStyle = "short";
  if (format.includes("T")) options.timeStyle = "medium";
  if (options.weekday && (options.dateStyle || options.timeStyle)) {
    // Intl does not mix weekday with the styles: spell the parts out instead.
    const parts = { weekday: "long" };
    if (options.dateStyle) Object.assign(parts, { year: "numeric", month: options.dateStyle === "long" ? "long" : "numeric", day: "numeric" });
    if (options.timeStyle) Object.assign(parts, { hour: "2-digit", minute: "2-digit" }, options.timeStyle === "medium" ? { second: "2-digit" } : {});
    node.textContent = at.toLocaleString(undefined, parts);
  } else {
    node.textContent = at.toLocaleString(undefined, options);
  }
  node.title = at.toString();
}

function keyboard(view) {
  const rows = (view.markup && view.markup.inline_keyboard) || [];
  if (!rows.length) return null;
  const board = document.createElement("div");
  board.className = "keyboard";
  for (const row of rows) {
    const line = document.createElement("div");
    line.className = "keyrow";
    for (const button of row) {
      const key = document.createElement("button");
      key.type = "button";
      key.className = "key";
      key.textContent = button.text;
      if (button.url) {
        key.classList.add("url");
        key.dataset.url = button.url;
        key.addEventListener("click", () => openLink(button.url));
      } else {
        key.dataset.data = button.callback_data;
        key.addEventListener("click", () => press(view.chat, view.id, button.callback_data, key));
      }
      line.append(key);
    }
    board.append(line);
  }
  return board;
}

function drawMessage(view) {
  const pane = panes[view.chat];
  const list = $(".messages", pane);
  const atBottom = list.stick !== false;
  const mine = state.seat && view.from === state.seat.id;
  const item = document.createElement("div");
  item.className = `msg${mine ? " out" : ""}${view.bot ? " from-bot" : ""}`;
  item.dataset.id = view.id;
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  if (view.chat === "group" && !mine) {
    const sender = document.createElement("div");
    sender.className = "sender";
    sender.textContent = view.name;
    bubble.append(sender);
  }
  const content = document.createElement("div");
  content.className = "content";
  content.innerHTML = view.html; // the server's safe rendering of Telegram's HTML subset
  for (const node of content.querySelectorAll("time.tg-time")) localTime(node);
  const meta = document.createElement("span");
  meta.className = "meta";
  meta.textContent = (view.edited ? `${t("edited")} ` : "") + clock(view.date);
  bubble.append(content, meta);
  item.append(bubble);
  const board = keyboard(view);
  if (board) item.append(board);
  const old = $(`.msg[data-id="${view.id}"]`, list);
  if (old) {
    old.replaceWith(item);
    if (atBottom) list.scrollTop = list.scrollHeight;
  } else {
    const empty = $(".empty", list);
    if (empty) empty.remove();
    list.append(item);
    if (atBottom || mine) list.scrollTop = list.scrollHeight;
    else $(".down", pane).hidden = false;
  }
}

function drawEmpty(chat) {
  const list = $(".messages", panes[chat]);
  if (list.children.length) return;
  const hint = document.createElement("div");
  hint.className = "empty";
  hint.textContent = t(chat === "group" ? "empty_group" : "empty_private");
  list.append(hint);
}

function setStarted(started) {
  const start = $(".start-bot", panes.private);
  start.hidden = started;
  $(".composer", panes.private).style.visibility = started ? "visible" : "hidden";
}

async function loadChats() {
  const snapshot = await call("state", {}, "GET");
  state.boot = snapshot.boot;
  state.seq = snapshot.seq;
  for (const chat of ["group", "private"]) {
    $(".messages", panes[chat]).replaceChildren();
    for (const view of snapshot[chat]) drawMessage(view);
    drawEmpty(chat);
    const list = $(".messages", panes[chat]);
    list.scrollTop = list.scrollHeight;
  }
  $("#members").textContent = t("members").replace("{count}", snapshot.members);
  setStarted(snapshot.started);
}

// -- what the user does ----------------------------------------------------------------------
function toast(pane, text) {
  const box = $(".toast", pane);
  box.textContent = text;
  box.hidden = false;
  clearTimeout(box.timer);
  box.timer = setTimeout(() => { box.hidden = true; }, 2500);
}

function alertBox(text) {
  const dialog = $("#alert");
  $("p", dialog).textContent = text;
  if (!dialog.open) dialog.showModal();
}

// Presses still waiting for the bot's answer (the page's tests wait for none).
let unanswered = 0;
window.unansweredPresses = () => unanswered;

function showAnswer(answer) {
  // The message may have been edited meanwhile: its old button is gone, the chat remains.
  const { key, chat } = pending.get(answer.query);
  pending.delete(answer.query);
  key.classList.remove("loading");
  unanswered -= 1;
  if (answer.text) {
    if (answer.alert) alertBox(answer.text);
    else toast(panes[chat], answer.text);
  }
}

async function press(chat, messageId, data, key) {
  if (key.classList.contains("loading")) return;
  key.classList.add("loading");
  unanswered += 1;
  const done = () => { key.classList.remove("loading"); unanswered -= 1; };
  try {
    const { query } = await call("press", { chat, message_id: messageId, data });
    pending.set(query, { key, chat });
    if (early.has(query)) {
      showAnswer(early.get(query));
      early.delete(query);
      return;
    }
    setTimeout(() => { if (pending.delete(query)) done(); }, 15000);
  } catch (error) {
    done();
    // 400: the button left its message before the page drew that (not the table's English)
    toast(panes[chat], t(error.status === 400 ? "button_gone" : "not_sent"));
  }
}

async function say(chat, text) {
  try {
    await call("send", { chat, text });
  } catch {
    toast(panes[chat], t("not_sent"));
  }
}

function showPrivate() {
  panes.private.scrollIntoView({ behavior: "smooth", block: "start" });
  $("input", panes.private).focus({ preventScroll: true });
}

async function startBot(payload) {
  setStarted(true);
  showPrivate();
  try {
    await call("send", payload ? { chat: "private", start: payload } : { chat: "private", text: "/start" });
  } catch {
    toast(panes.private, t("not_sent"));
  }
}

// t.me/<this bot>?start=<payload> opens this user's private chat with the bot, as in Telegram.
function openLink(href) {
  let url;
  try { url = new URL(href, location.href); } catch { return; }
  const host = url.hostname.replace(/^www\./, "");
  const name = url.pathname.replace(/^\//, "").toLowerCase();
  if ((host === "t.me" || host === "telegram.me") && name === state.bot.username.toLowerCase()) {
    startBot(url.searchParams.get("start") || "");
    return;
  }
  window.open(url.href, "_blank", "noopener");
}

function wirePane(chat) {
  const pane = panes[chat];
  // Follow new messages unless the user scrolled up to read (as Telegram does).
  const list = $(".messages", pane);
  const down = $(".down", pane);
  list.addEventListener("scroll", () => {
    list.stick = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
    if (list.stick) down.hidden = true;
  });
  down.addEventListener("click", () => {
    list.scrollTop = list.scrollHeight;
    down.hidden = true;
  });
  const form = $(".composer", pane);
  const menu = $(".menu-list", pane);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = form.elements.text.value.trim();
    if (!text) return;
    form.elements.text.value = "";
    menu.hidden = true;
    say(chat, text);
  });
  $(".menu-button", pane).addEventListener("click", () => {
    menu.replaceChildren();
    for (const { command, description } of state.menus[chat]) {
      const item = document.createElement("button");
      item.type = "button";
      item.dataset.command = command;
      const name = document.createElement("b");
      name.textContent = `/${command}`;
      item.append(name, description);
      item.addEventListener("click", () => { menu.hidden = true; say(chat, `/${command}`); });
      menu.append(item);
    }
    menu.hidden = !menu.hidden || !state.menus[chat].length;
  });
  $(".messages", pane).addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (link) {
      event.preventDefault();
      openLink(link.getAttribute("href"));
      return;
    }
    const spoiler = event.target.closest(".spoiler");
    if (spoiler) spoiler.classList.add("shown");
    const quote = event.target.closest("blockquote.expandable");
    if (quote) quote.classList.toggle("open");
  });
}

// -- what the bot does (long polling) --------------------------------------------------------
function apply(event) {
  if (event.kind === "message") {
    drawMessage(event.message);
  } else if (event.kind === "delete") {
    const gone = $(`.msg[data-id="${event.id}"]`, $(".messages", panes[event.chat]));
    if (gone) gone.remove();
  } else if (event.kind === "answer") {
    if (pending.has(event.query)) showAnswer(event);
    else early.set(event.query, event);
  } else if (event.kind === "members") {
    $("#members").textContent = t("members").replace("{count}", event.count);
  }
}

async function listen() {
  for (;;) {
    try {
      const answer = await call("events", { after: state.seq }, "GET");
      $("#offline").hidden = true;
      if (answer.resync || answer.boot !== state.boot) {
        await loadChats();
        continue;
      }
      for (const event of answer.events) apply(event);
      state.seq = answer.seq;
    } catch (error) {
      $("#offline").hidden = false;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (error.status === 401) {
        await takeSeat();
        await loadChats();
      }
    }
  }
}

async function main() {
  panes.group = $("#group");
  panes.private = $("#private");
  const info = await call("texts", { lang: navigator.language || "en" }, "GET");
  Object.assign(state, { texts: info.texts, menus: info.menus, bot: info.bot, lang: info.lang });
  applyTexts();
  wirePane("group");
  wirePane("private");
  $(".start-bot", panes.private).addEventListener("click", () => startBot(""));
  await takeSeat();
  $("#me").textContent = t("you").replace("{name}", state.seat.name);
  await loadChats();
  document.body.dataset.ready = "1";
  listen();
}

main();
