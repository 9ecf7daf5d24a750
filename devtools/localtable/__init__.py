"""The local table: `make run` without a token plays the bot in the browser.

One process serves a small Bot API (``bot_api``) that the bot's real gateway talks to over HTTP,
and a web page (``static/``) that looks like a Telegram group chat beside each player's private
chat with the bot. ``chats`` holds what the chats show, ``telegram_html`` reads Telegram's HTML
subset, ``server`` puts both behind one standard-library HTTP server (a request waits for its
whole self in ``arrivals``, is checked by ``guards``; the page's routes are ``page_api``),
``run`` wires it to the same CoachRideBot as the real bot.
"""
