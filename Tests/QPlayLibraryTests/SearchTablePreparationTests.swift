import Foundation
import QPlayModel
import Synchronization
import QPlayTestSupport
import Testing

@testable import QPlayLibrary

/// `prepareSearchTable` builds the table without a query; queries during the build
/// answer from SQL (never wait for it, never load a second copy); a rescan that changed
/// nothing keeps the table.
@Suite struct SearchTablePreparationTests {
    let helper = SearchTableTests()

    @Test func theTableIsBuiltWithoutAQuery() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try helper.makeIndex(fixture)
        #expect(index.table.withLock { $0 } == nil)
        let built = try index.prepareSearchTable()
        #expect(built == SearchTableTests.syntheticTracks().count)
        let table = try #require(index.table.withLock { $0 })
        // Current: neither a second build nor the next query loads another.
        #expect(try index.prepareSearchTable() == nil)
        let love = try index.search(.titleContains("love"))
        #expect(love.tracks == (try helper.sqlAnswer(index, .titleContains("love"))))
        #expect(index.table.withLock { $0 } === table)
    }

    @Test func aQueryDuringTheBuildIsAnsweredFromSQL() throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        let index = try helper.makeIndex(fixture)
        let query = Query.titleContains("love")
        let expected = try helper.sqlAnswer(index, query)
        #expect(!expected.isEmpty)

        let during = Mutex<(tracks: [Track], count: Int, loaded: Bool)?>(nil)
        let built = try index.prepareSearchTable(whileBuilding: {
            // The build holds a reader in this thread; the query takes another one.
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let tracks = (try? index.search(query).tracks) ?? []
                let count = (try? index.count(query)) ?? -1
                during.withLock { $0 = (tracks, count, index.table.withLock { $0 } != nil) }
                done.signal()
            }
            thread.start()
            // Bounded: a query that waited for the build would deadlock here.
            #expect(done.wait(timeout: .now() + 30) == .success, "the query did not wait for the build")
        })
        #expect(built == SearchTableTests.syntheticTracks().count)
        let answer = try #require(during.withLock { $0 })
        #expect(answer.tracks == expected)
        #expect(answer.count == expected.count)
        #expect(!answer.loaded, "the query loaded its own table during the build")
        #expect(index.table.withLock { $0 } != nil)
        #expect(try index.search(query).tracks == expected)
    }

    @Test func aRescanThatChangedNothingKeepsTheTable() async throws {
        let fixture = LibraryFixture()
        defer { fixture.remove() }
        try fixture.copySamples()
        let index = try fixture.openIndex()
        _ = try await fixture.scanner(index).scan()
        #expect(try index.prepareSearchTable() == SampleCatalog.all.count)
        let table = try #require(index.table.withLock { $0 })

        let summary = try await fixture.scanner(index).scan()
        #expect(summary.added + summary.updated + summary.removed == 0)
        #expect(try index.prepareSearchTable() == nil)
        #expect(index.table.withLock { $0 } === table)

        // A change does make it stale, and the next build replaces it.
        try FileManager.default.removeItem(
            atPath: fixture.music.appending("Test Tones/Love Songs/02 Endless Love.mp3").string)
        _ = try await fixture.scanner(index).scan()
        #expect(try index.prepareSearchTable() == SampleCatalog.all.count - 1)
        let rebuilt = try #require(index.table.withLock { $0 })
        #expect(rebuilt !== table && rebuilt.generation > table.generation)
        #expect(try index.search(.titleContains("endless")).isEmpty)
    }
}
