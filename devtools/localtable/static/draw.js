// The local table's page: drawing the chats' messages and keyboards (see api.js).
"use strict";

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
