// The local table's page, one script a job, loaded in this order (index.html): api.js (the
// table's API, the seat), draw.js (messages and keyboards), act.js (what the user does), app.js
// (what the bot does: long polling; the start). This browser is one user: a seat (id, secret,
// name) kept in localStorage.
"use strict";

const SEAT_KEY = "coachride.seat";
const TAB_KEY = "coachride.tab";
const state = { seat: null, texts: {}, menus: { group: [], private: [] }, bot: {}, seq: 0, boot: null };
const pending = new Map(); // callback query id -> {key, chat}: the pressed button and its chat
const early = new Map(); // answers that came before the press's own reply (the bot is quick)
const panes = {};

function $(selector, root = document) { return root.querySelector(selector); }

async function call(name, params, method = "POST") {
  // the seat goes in headers, never in a URL (logged, kept in the history)
  const seat = state.seat ? { "X-Seat-Id": String(state.seat.id), "X-Seat-Secret": state.seat.secret } : {};
  if (name === "events") seat["X-Tab-Id"] = tabId();
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

// This tab's id, kept over a reload (sessionStorage): the table hands a reloaded page's long
// poll the slot of the poll it left behind, rather than count both (a few reloads were 429s).
function tabId(fresh = false) {
  let id = sessionStorage.getItem(TAB_KEY);
  if (fresh || !id) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem(TAB_KEY, id);
  }
  return id;
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
