// Coven's browser door: an xterm.js terminal (screen-reader mode on) joined to this visit's Coven by a WebSocket.
// Sends ["stdin", text], ["resize", {width, height}] and, as it opens, ["seat", kept]: the seat this tab keeps in
// its session storage (sealed by the door; never a cookie, never the address), so a refresh takes it back.
// Receives the screen as binary frames, and ["size", {width, height}] (the size the server applied, clamped),
// ["seat", kept] (the seat to keep; "" for none) or ["refused", reason] as text.
"use strict";
(function () {
  const box = document.getElementById("terminal");
  const status = document.getElementById("status");
  const term = new Terminal({
    screenReaderMode: true,  // a full-screen app is otherwise silent to a screen reader
    scrollback: 0,
    fontSize: 15,
    fontFamily: "monospace",
  });
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(box);
  window.covenTerminal = term;  // for the tests, and for anyone inspecting the page
  const wanted = fit.proposeDimensions() || { cols: 80, rows: 24 };
  const url = new URL("/ws", window.location.href);
  url.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("width", String(wanted.cols));
  url.searchParams.set("height", String(wanted.rows));
  if (box.dataset.linear === "1") {
    url.searchParams.set("linear", "1");
  }
  const KEPT_SEAT = "coven-kept-seat";

  function keptSeat() {
    try {
      return window.sessionStorage.getItem(KEPT_SEAT);
    } catch (error) {  // storage turned off: the typed token still works
      return null;
    }
  }

  function keepSeat(kept) {
    try {
      if (kept) {
        window.sessionStorage.setItem(KEPT_SEAT, kept);
      } else {
        window.sessionStorage.removeItem(KEPT_SEAT);
      }
    } catch (error) {
      // storage turned off: nothing is kept
    }
  }

  const socket = new WebSocket(url.toString());
  socket.binaryType = "arraybuffer";

  function send(message) {
    if (socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    }
  }

  socket.addEventListener("open", function () {
    status.textContent = "";
    const kept = keptSeat();
    if (kept) {
      send(["seat", kept]);
    }
    term.focus();
  });
  socket.addEventListener("message", function (event) {
    if (typeof event.data !== "string") {
      term.write(new Uint8Array(event.data));
      return;
    }
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (message[0] === "size") {
      term.resize(message[1].width, message[1].height);
    } else if (message[0] === "seat") {
      keepSeat(typeof message[1] === "string" ? message[1] : "");
    } else if (message[0] === "refused") {
      status.textContent = String(message[1]);
    }
  });
  socket.addEventListener("close", function (event) {
    document.body.classList.add("closed");
    if (!status.textContent) {
      status.textContent = event.reason || "Coven ended; reload the page to play again.";
    }
  });
  // A long paste goes in pieces, each well under the server's bound on one message (64 KiB).
  const PIECE = 8192;
  term.onData(function (data) {
    for (let start = 0; start < data.length; start += PIECE) {
      send(["stdin", data.slice(start, start + PIECE)]);
    }
  });

  let pending = null;
  window.addEventListener("resize", function () {
    // One message when the window settles, not one for every step of a drag.
    if (pending !== null) {
      clearTimeout(pending);
    }
    pending = setTimeout(function () {
      pending = null;
      const size = fit.proposeDimensions();
      if (size) {
        send(["resize", { width: size.cols, height: size.rows }]);
      }
    }, 150);
  });
}());
