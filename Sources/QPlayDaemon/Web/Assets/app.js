// The Simple Player: connects, subscribes and reads everything, again after every
// reconnection (the daemon restarted, or the network came back).
import { listeners, connect, request, report } from "./net.js";
import { startPlayer, refreshStatus } from "./player.js";
import { startQueue, readQueue } from "./queue.js";

// Search and the library picker are loaded after the first paint's modules, not beside
// them: Chromium opens at most six connections to a host, the WebSocket's among them,
// and two files fewer at load leave it one from the start.
const later = Promise.all([import("./search.js"), import("./library.js")]).then(([search, library]) => {
  search.startSearch();
  library.startLibrary();
  return search;
});
later.catch(report);

startPlayer();
startQueue();
listeners.open.push(async () => {
  try {
    // Sent together, `subscribe` first: answers come in request order on one connection
    // (docs/PROTOCOL.md), so the daemon subscribes before it reads, no change between
    // them is missed, and the reads do not wait a round trip for the subscription's answer.
    // index.html has sent the first connection's `subscribe` and `status` already.
    const subscribed = request("subscribe", { events: ["player", "queue", "playlists", "scan"] });
    await refreshStatus();
    // The queue's window (up to ~330 entries, ~140 KB of JSON) is asked for once the
    // track has been painted: parsing it first would hold that frame back. A `queue`
    // event meanwhile reads it anyway.
    await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
    await Promise.all([subscribed, readQueue()]);
    (await later).searchAgain();
  } catch (error) {
    report(error);
  }
});
listeners.event.push((kind, data) => { if (kind === "scan" && data.done) later.then((search) => search.searchAgain(), report); });
connect();
