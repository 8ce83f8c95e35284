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

    @Test func secondsWithThreeDecimals() {
        #expect(MPDNumber.seconds(0) == "0.000")
        #expect(MPDNumber.seconds(12.3456) == "12.346")
        #expect(MPDNumber.seconds(1.0005) == "1.001")
        #expect(MPDNumber.seconds(215.9999) == "216.000")
        #expect(MPDNumber.seconds(0.05) == "0.050")
        #expect(MPDNumber.seconds(-1.5) == "-1.500")
        #expect(MPDNumber.seconds(.nan) == "0.000")
        #expect(MPDNumber.roundedSeconds(215.5) == 216)
        #expect(MPDNumber.roundedSeconds(215.49) == 215)
        #expect(MPDNumber.roundedSeconds(.infinity) == 0)
    }
}
