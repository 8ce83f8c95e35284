import QPlayLibrary
import QPlayTestSupport
import Testing

@testable import QPlayDaemon

/// The `resume_point` table: written one point at a time, kept across reopening,
/// forgotten with the track.
@Suite struct ResumePointStoreTests {
    @Test func pointsAreSetReplacedClearedAndSurviveReopening() throws {
        let dir = TemporaryDirectory("qplay-resume-store")
        defer { dir.remove() }
        let path = dir.appending("state.sqlite")
        do {
            let store = try StateStore(path: path)
            try store.setResumePoint(track: 7, position: 300)
            try store.setResumePoint(track: 7, position: 412.5)
            try store.setResumePoint(track: 9, position: 60)
            try store.setResumePoint(track: 11, position: 90)
            try store.setResumePoint(track: 11, position: nil)
            try store.close()
        }
        let reopened = try StateStore(path: path)
        #expect(try reopened.resumePoints() == [7: 412.5, 9: 60])
        try reopened.forgetTracks([9])
        #expect(try reopened.resumePoints() == [7: 412.5])
    }

    @Test func pointsOfTracksTheLibraryLacksAreForgottenAtStartUp() throws {
        let dir = TemporaryDirectory("qplay-resume-store")
        defer { dir.remove() }
        let store = try StateStore(path: dir.appending("state.sqlite"))
        let index = try LibraryIndex(databasePath: dir.appending("library.sqlite"))
        try store.setResumePoint(track: 7, position: 300)
        #expect(try BookmarkService.storedResumePoints(store: store, index: index).isEmpty)
        #expect(try store.resumePoints().isEmpty)
    }
}
