import QPlayMPD
import Testing

@Suite struct MPDResponseTests {
    @Test func fieldsListOKAndOK() {
        var response = MPDResponse()
        response.field("volume", 50)
        response.field("state", "play")
        response.listOK()
        response.field("file", "a b/c.mp3")
        response.ok()
        #expect(String(decoding: response.bytes, as: UTF8.self)
            == "volume: 50\nstate: play\nlist_OK\nfile: a b/c.mp3\nOK\n")
    }

    @Test func aValueNeverBreaksItsLine() {
        var response = MPDResponse()
        response.field("Title", "one\ntwo\r\nthree")
        #expect(String(decoding: response.bytes, as: UTF8.self) == "Title: one two  three\n")
    }

    @Test func ackLines() {
        #expect(MPDError(.argument, "Integer expected: x", command: "play").ackLine(index: 0)
            == "ACK [2@0] {play} Integer expected: x\n")
        #expect(MPDError(.unknown, "unknown command \"x\"").ackLine(index: 3) == "ACK [5@3] {} unknown command \"x\"\n")
        #expect(MPDError(.noExist, "No such song").naming("playid").ackLine(index: 1) == "ACK [50@1] {playid} No such song\n")
        #expect(MPDError(.system, "two\nlines").ackLine(index: 0) == "ACK [52@0] {} two lines\n")
        var response = MPDResponse()
        response.listOK()
        response.ack(MPDError(.playerSync, "Not playing", command: "seekcur"), index: 1)
        #expect(String(decoding: response.bytes, as: UTF8.self) == "list_OK\nACK [55@1] {seekcur} Not playing\n")
    }

    @Test func errorNumbersAreMPDs() {
        #expect([MPDErrorCode.notList, .argument, .password, .permission, .unknown].map(\.rawValue) == [1, 2, 3, 4, 5])
        #expect([MPDErrorCode.noExist, .playlistMax, .system, .playlistLoad, .updateAlready, .playerSync, .exist]
            .map(\.rawValue) == [50, 51, 52, 53, 54, 55, 56])
    }

    /// C's printf("%.3f") rounds the double's exact binary value (1.0005 is 1.000499…;
    /// 0.0625 is an exact tie, to even). The pairs are printf's own answers.
    @Test func secondsWithThreeDecimalsAsPrintf() {
        let printf: [(Double, String)] = [
            (1.0005, "1.000"), (2.0015, "2.002"), (0.0125, "0.013"), (0.0375, "0.037"), (0.0625, "0.062"),
            (0.1875, "0.188"), (0.0005, "0.001"), (1.2345, "1.234"), (215.9999, "216.000"),
            (3599.9995, "3599.999"), (1295.3311, "1295.331"), (1579.294, "1579.294"), (289.745, "289.745"),
            (3638.8163, "3638.816"), (149.982633768, "149.983"), (1672.6886, "1672.689"),
            (362.852053375, "362.852"), (2308.41179447, "2308.412"), (198.3573, "198.357"),
            (0, "0.000"), (12.3456, "12.346"), (0.05, "0.050"),
        ]
        for (value, expected) in printf {
            #expect(MPDNumber.seconds(value) == expected, "\(value)")
        }
        #expect(MPDNumber.seconds(-1.5) == "-1.500")
        #expect(MPDNumber.seconds(.nan) == "0.000")
        #expect(MPDNumber.seconds(9e20) == "9000000000000.000")
        #expect(MPDNumber.seconds(.leastNonzeroMagnitude) == "0.000")
        #expect(MPDNumber.roundedSeconds(215.5) == 216)
        #expect(MPDNumber.roundedSeconds(215.49) == 215)
        #expect(MPDNumber.roundedSeconds(.infinity) == 0)
    }
}
