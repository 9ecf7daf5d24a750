// The local table's page: what the user does (see api.js).
"use strict";

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

// Telegram tells of a new private message wherever one looks; here a phone shows the group
// above the private chat, where a decision with a deadline may wait unseen: a button says so.
function privateInView() {
  const box = panes.private.getBoundingClientRect();
  const seen = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
  return seen > Math.min(box.height, window.innerHeight) * 0.3;
}

function notePrivate() {
  if (!privateInView()) $("#to-private").hidden = false;
}

function showPrivate() {
  $("#to-private").hidden = true;
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
