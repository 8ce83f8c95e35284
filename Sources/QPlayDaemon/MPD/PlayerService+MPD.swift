import QPlayEngine

extension PlayerService {
    /// The snapshot and the collection index of the next entry, in one call: `status` is
    /// what status bars ask most, and each hop onto the actor costs more than the answer.
    func snapshotWithNextPosition() -> (PlayerSnapshot, nextPosition: Int?) {
        let snapshot = snapshot()
        guard let next = snapshot.status.next else { return (snapshot, nil) }
        return (snapshot, queueSnapshot().position(of: next.id, near: snapshot.status.index))
    }
}
