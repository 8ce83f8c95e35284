// The Simple Player: connects, subscribes and reads everything, again after every
// reconnection (the daemon restarted, or the network came back).
import { listeners, connect, request, report } from "./net.js";
import { startPlayer, refreshStatus } from "./player.js";
import { startQueue, readQueue } from "./queue.js";
import { startSearch, searchAgain } from "./search.js";
import { startLibrary } from "./library.js";

startPlayer();
startQueue();
startSearch();
startLibrary();
listeners.open.push(async () => {
  try {
    // Subscribed first, so no change between the reads and the subscription is missed.
    await request("subscribe", { events: ["player", "queue", "playlists", "scan"] });
    await Promise.all([refreshStatus(), readQueue()]);
    searchAgain();
  } catch (error) {
    report(error);
  }
});
listeners.event.push((kind, data) => { if (kind === "scan" && data.done) searchAgain(); });
connect();
