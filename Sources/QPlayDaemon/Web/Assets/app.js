"use strict";
// Placeholder until the Simple Player lands: shows the daemon's greeting.
const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
socket.onmessage = (event) => { document.getElementById("status").textContent = event.data; };
