// The local table's page: what the bot does, and the start (see api.js).
"use strict";

// -- what the bot does (long polling) --------------------------------------------------------
function apply(event) {
  if (event.kind === "message") {
    const view = event.message;
    const fresh = !$(`.msg[data-id="${view.id}"]`, $(".messages", panes[view.chat]));
    drawMessage(view);
    if (view.chat === "private" && fresh && view.bot) notePrivate();
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
      if (answer.superseded) {
        tabId(true); // a copy of this tab (it kept our id) polls now: take an id of our own
        continue;
      }
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
  $("#to-private").addEventListener("click", showPrivate);
  window.addEventListener("scroll", () => { if (privateInView()) $("#to-private").hidden = true; }, { passive: true });
  await takeSeat();
  $("#me").textContent = t("you").replace("{name}", state.seat.name);
  await loadChats();
  document.body.dataset.ready = "1";
  listen();
}

main();
