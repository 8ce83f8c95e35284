import Foundation
import QPlayProtocol
import Testing

@Suite("qplay command-line helpers")
struct ClientSupportTests {
    @Test func seekForms() {
        #expect(SeekArgument.parse("+30") == .delta(30))
        #expect(SeekArgument.parse("-10") == .delta(-10))
        #expect(SeekArgument.parse("+2.5") == .delta(2.5))
        #expect(SeekArgument.parse("90") == .position(90))
        #expect(SeekArgument.parse("1:30") == .position(90))
        #expect(SeekArgument.parse("0:05") == .position(5))
        #expect(SeekArgument.parse("1:02:03") == .position(3723))
        #expect(SeekArgument.parse("-1:00") == .delta(-60))
        for bad in ["", "+", "abc", "1:60", "1:2:3:4", "1::2", ":30", "1:70:00", "1e3", "--5", "nan"] {
            #expect(SeekArgument.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func volumeForms() {
        #expect(VolumeArgument.parse("80") == .set(80))
        #expect(VolumeArgument.parse("+5") == .delta(5))
        #expect(VolumeArgument.parse("-5") == .delta(-5))
        for bad in ["", "101", "+", "x", "5%", "-101"] { #expect(VolumeArgument.parse(bad) == nil, "\(bad)") }
    }

    @Test func whereExpressions() throws {
        #expect(try WhereExpression.parse("artist=Beyoncé") == Predicate(.artist, .equals, "Beyoncé"))
        #expect(try WhereExpression.parse("album~live") == Predicate(.album, .contains, "live"))
        #expect(try WhereExpression.parse("album_artist=A=B") == Predicate(.albumArtist, .equals, "A=B"))
        #expect(try WhereExpression.parse("Album-Artist~x") == Predicate(.albumArtist, .contains, "x"))
        #expect(try WhereExpression.parse("title~a=b") == Predicate(.title, .contains, "a=b"))
        #expect(throws: WhereExpression.ParseError.noOperator("artist")) { try WhereExpression.parse("artist") }
        #expect(throws: WhereExpression.ParseError.unknownProperty("mood")) { try WhereExpression.parse("mood=happy") }
    }

    @Test func whereExpressionsOnListeningFigures() throws {
        #expect(try WhereExpression.parse("rating>=4") == Predicate(.rating, .ge, "4"))
        #expect(try WhereExpression.parse("plays=0") == Predicate(.plays, .eq, "0"))
        #expect(try WhereExpression.parse("skips>3") == Predicate(.skips, .gt, "3"))
        #expect(try WhereExpression.parse("plays<=10") == Predicate(.plays, .le, "10"))
        #expect(try WhereExpression.parse("rating<2") == Predicate(.rating, .lt, "2"))
        #expect(try WhereExpression.parse("added<30d") == Predicate(.added, .within, "30d"))
        #expect(try WhereExpression.parse("last_played>90d") == Predicate(.lastPlayed, .before, "90d"))
        #expect(try WhereExpression.parse("Last-Played>2w") == Predicate(.lastPlayed, .before, "2w"))
        for bad in ["rating~4", "plays=x", "plays=-1", "plays>=", "added=30d", "added<30", "added<30y", "title<x", "added<d"] {
            #expect(throws: WhereExpression.ParseError.self, "\(bad)") { try WhereExpression.parse(bad) }
        }
    }

    @Test func timeText() {
        #expect(TimeText.format(0) == "0:00")
        #expect(TimeText.format(59.9) == "0:59")
        #expect(TimeText.format(183.4) == "3:03")
        #expect(TimeText.format(3723) == "1:02:03")
        #expect(TimeText.format(-4) == "0:00")
    }

    /// Numbers from the wire that `Int(_:)` would trap on: the client shows something
    /// and goes on.
    @Test func numbersPastIntsRangeDoNotTrap() {
        #expect(TimeText.format(1e300) == TimeText.format(1e15))
        #expect(TimeText.format(.infinity) == "0:00")
        #expect(TimeText.format(.nan) == "0:00")
        var status = sampleStatus
        status.position = 1e300
        status.duration = 1e-300
        #expect(WaybarLine(status: status, format: nil).percentage == 100)
        status.duration = 0
        #expect(WaybarLine(status: status, format: nil).percentage == 0)
        let progress = ScanProgressUpdate(seen: 5, total: 10, rate: 1e300, done: false)
        #expect(Listing.progressBar(progress).contains("5/10 files"))
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: -.infinity) == -1_000_000_000_000_000)
    }

    @Test func formatPlaceholders() {
        let template =
            "{title}|{artist}|{album}|{album_artist}|{track}|{year}|{genre}|{position}|{duration}|{remaining}|{state}|{icon}|{volume}|{index}|{queue_length}|{file}|{meter}|{level_db}|{chapter}|{{x}}"
        #expect(
            StatusFormat.render(template, status: sampleStatus)
                == "Song|Beyoncé|Live||1|2003||0:12|3:03|2:51|playing|▶|80|3|4|Artist/Album/01 Song.mp3||||{x}")
        #expect(Set(StatusFormat.placeholders).count == 19)
        // In an audiobook: the chapter at the position, by title or by number.
        var book = sampleStatus
        book.chapters = [ChapterInfo(title: "Prologue", start: 0), ChapterInfo(title: "", start: 10)]
        book.chapter = 0
        #expect(StatusFormat.render("{chapter}", status: book) == "Prologue")
        book.chapter = 1
        #expect(StatusFormat.render("{chapter}", status: book) == "Chapter 2")
        #expect(Listing.chapters(book) == ["  1  0:00  Prologue", "▶ 2  0:10  Chapter 2"])
        #expect(Listing.chapters(sampleStatus) == ["the playing track has no chapters"])
        var paused = sampleStatus
        paused.state = .paused
        #expect(StatusFormat.render("{icon} {title}", status: paused) == "⏸ Song")
    }

    @Test func pangoEscaping() {
        #expect(PangoText.escape("Rock & Roll <Live> \"x\" 'y'") == "Rock &amp; Roll &lt;Live&gt; \"x\" 'y'")
        #expect(PangoText.escape("&amp;") == "&amp;amp;")
        #expect(PangoText.escape("Café") == "Café")
        #expect(PangoText.escape("") == "")
    }

    /// waybar reads Pango markup: tags are escaped, the template's own markup is kept.
    @Test func waybarLineEscapesTagsButNotTheTemplate() {
        var status = sampleStatus
        status.track?.title = "Rock & Roll <Live>"
        status.track?.artist = "Simon & Garfunkel"
        let formatted = WaybarLine(status: status, format: "<b>{title}</b> by {artist}")
        #expect(formatted.text == "<b>Rock &amp; Roll &lt;Live&gt;</b> by Simon &amp; Garfunkel")
        let plain = WaybarLine(status: status, format: nil)
        #expect(plain.text == "Simon &amp; Garfunkel – Rock &amp; Roll &lt;Live&gt;")
        #expect(plain.tooltip.hasPrefix("Rock &amp; Roll &lt;Live&gt;\nSimon &amp; Garfunkel — Live\n"))
    }

    @Test func levelPlaceholders() {
        var status = sampleStatus
        #expect(StatusFormat.render("[{meter}] {level_db}", status: status) == "[] ")
        status.level = LevelReading(rmsDB: [-9.03, -12.5], peakDB: [-6.0, -8.0])
        // The louder channel; −9.03 on −60…0 dB over 8 cells is 54 of 64 eighths.
        #expect(StatusFormat.render("[{meter}] {level_db}", status: status) == "[██████▊ ] -9.0")
        status.level = LevelReading(rmsDB: [-160, -160], peakDB: [-160, -160])
        #expect(StatusFormat.render("[{meter}] {level_db}", status: status) == "[        ] -inf")
        status.level = LevelReading(rmsDB: [0], peakDB: [0])
        #expect(StatusFormat.render("{meter}", status: status) == "████████")
        #expect(StatusFormat.showsLevel("{title} {meter}"))
        #expect(StatusFormat.showsLevel("{level_db}"))
        #expect(!StatusFormat.showsLevel("{title} {{meter}}"))
        #expect(!StatusFormat.showsLevel(nil))
        #expect(LevelBar.text(-0.04) == "0.0")
        #expect(LevelBar.text(-12.35) == "-12.4" || LevelBar.text(-12.35) == "-12.3")
    }

    /// Found by the status-format fuzz target: the text before an unclosed `{` came out
    /// twice. A template `validate` refuses (qplay exits 2 on it first) renders as written.
    @Test func unclosedBraceStaysAsWritten() {
        #expect(StatusFormat.render("{title} – {art", status: sampleStatus) == "{title} – {art")
        #expect(StatusFormat.render("ab {", status: sampleStatus) == "ab {")
        #expect(StatusFormat.render("{", status: sampleStatus) == "{")
    }

    @Test func stoppedRendersNothing() {
        #expect(StatusFormat.render("{artist} – {title}", status: Status(state: .stopped, output: .init(name: "null"))) == "")
    }

    @Test func waybarLine() throws {
        let line = WaybarLine(status: sampleStatus, format: nil)
        #expect(line.text == "Beyoncé – Song")
        #expect(line.class == "playing")
        #expect(line.alt == "playing")
        #expect(line.percentage == 6)
        #expect(line.tooltip.contains("0:12 / 3:03"))
        let fields = try object(line)
        #expect(Set(fields.keys) == ["text", "tooltip", "class", "alt", "percentage"])
        let paused = WaybarLine(status: { var s = sampleStatus; s.state = .paused; return s }(), format: "{title}")
        #expect(paused.text == "Song")
        #expect(paused.class == "paused")
        let stopped = WaybarLine(status: Status(state: .stopped, output: .init(name: "null")), format: "{title}")
        #expect(stopped.text == "")
        #expect(stopped.class == "stopped")
        #expect(stopped.percentage == 0)
    }

    @Test func queueListingIsOneBasedAndMarksThePlayingEntry() {
        var second = sampleTrack
        second.artist = nil
        second.title = "Other"
        let queue = Queue(
            entries: [Entry(entry: 10, index: 0, track: sampleTrack), Entry(entry: 11, index: 1, track: second)],
            current: 11, modified: true)
        #expect(
            Listing.queue(queue) == [
                "  1  Beyoncé – Song  3:03", "▶ 2  Other  3:03",
                "(queue modified: the player switches to it at the next track change)",
            ])
        #expect(Listing.queue(Queue(entries: [])) == ["the queue is empty"])
    }

    @Test func progressBar() {
        #expect(
            Listing.progressBar(ScanProgressUpdate(seen: 50, total: 100, rate: 25, done: false), width: 10)
                == "[#####-----] 50/100 files  25/s  ETA 0:02")
        #expect(Listing.progressBar(ScanProgressUpdate(seen: 7, total: nil, rate: 3.6, done: false)) == "7 files  4/s")
    }

    @Test func statusBlockNotesAModifiedQueue() {
        let lines = Listing.status(sampleStatus)
        #expect(lines[0] == "playing: Beyoncé – Song")
        #expect(lines.contains { $0.contains("queue modified") })
        #expect(lines.contains { $0.contains("0:12 / 3:03") && $0.contains("entry 3 of 4") })
    }

    @Test func statusBlockShowsSingleAndConsumeOnlyWhenOn() {
        #expect(!Listing.status(sampleStatus).contains { $0.contains("single") || $0.contains("consume") })
        var status = sampleStatus
        status.single = true
        status.consume = true
        #expect(Listing.status(status).contains { $0.contains("shuffle on   single on   consume on") })
    }

    @Test func statusBlockShowsTheReplayGainApplied() {
        #expect(Listing.status(sampleStatus).contains("  volume 80%   repeat all   shuffle on   replaygain auto (album -6.02 dB)"))
        var status = sampleStatus
        status.replayGain = ReplayGainStatus(mode: "track", gain: 1.5, source: "track")
        #expect(Listing.status(status).contains { $0.hasSuffix("replaygain track (track +1.5 dB)") })
        status.replayGain = ReplayGainStatus(mode: "track")
        #expect(Listing.status(status).contains { $0.hasSuffix("shuffle on   replaygain track") })
        status.replayGain = ReplayGainStatus(mode: "off")
        #expect(Listing.status(status).contains { $0.hasSuffix("shuffle on") })
    }
}
