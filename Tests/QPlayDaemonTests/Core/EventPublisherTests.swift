import Logging
import QPlayAudio
import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import Synchronization
import SystemPackage
import Testing

@testable import QPlayDaemon

/// Keeps every core event it receives.
private final class Recorder: CoreEventSubscriber {
    let events = Mutex<[CoreEvent]>([])

    func receive(_ event: CoreEvent) {
        events.withLock { $0.append(event) }
    }

    var received: [CoreEvent] { events.withLock { $0 } }
    var scans: [ScanProgressSummary] {
        received.compactMap { event in
            if case .scan(let progress) = event { return progress }
            return nil
        }
    }
}

@Suite struct EventPublisherTests {
    @Test func everySubscriberReceivesEachEventInPublishingOrder() {
        let publisher = EventPublisher()
        let first = Recorder()
        let second = Recorder()
        publisher.subscribe(first)
        publisher.publish(.storage("disk full"))
        publisher.subscribe(second)
        publisher.publish(.queue(QueueChangeSummary(length: 3, modified: true, version: 7)))
        publisher.publish(.storage(nil))
        #expect(first.received == [
            .storage("disk full"), .queue(QueueChangeSummary(length: 3, modified: true, version: 7)), .storage(nil),
        ])
        // A frontend subscribing later hears what comes after, nothing before.
        #expect(second.received == [.queue(QueueChangeSummary(length: 3, modified: true, version: 7)), .storage(nil)])
    }

    /// The last event of a scan is `done` and says whether the library changed, so the
    /// MPD frontend can tell its clients `database` only when there is something new.
    @Test func theEndOfAScanSaysWhetherTheLibraryChanged() async throws {
        let directory = TemporaryDirectory("qplay-events")
        defer { directory.remove() }
        let index = try LibraryIndex(databasePath: directory.appending("library.sqlite"))
        let publisher = EventPublisher()
        let recorder = Recorder()
        publisher.subscribe(recorder)
        let library = LibraryService(
            index: index, musicDirectory: SampleCatalog.directory,
            extensions: DecoderRegistry.standard.fileExtensions, events: publisher,
            log: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))

        let first = try await library.startScan(subpath: nil).value
        #expect(first.added > 0)
        let firstScan = recorder.scans
        #expect(firstScan.filter(\.done).count == 1)
        let end = try #require(firstScan.last)
        #expect(end.done && end.libraryChanged)
        #expect(end.seen >= first.added)

        let second = try await library.startScan(subpath: nil).value
        #expect(second.added + second.updated + second.removed == 0)
        let secondScan = recorder.scans.dropFirst(firstScan.count)
        #expect(secondScan.filter(\.done).count == 1)
        let unchanged = try #require(secondScan.last)
        #expect(unchanged.done && !unchanged.libraryChanged)
        #expect(unchanged.seen == end.seen)
    }
}
