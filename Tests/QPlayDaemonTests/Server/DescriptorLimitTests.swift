import QPlayDaemon
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DescriptorLimitTests {
    @Test(arguments: [
        // (soft limit, max_connections, cap)
        (1024, 512, 512),  // the usual session limit holds the default
        (524_288, 512, 512),  // a raised limit never raises the configured cap
        (1024, 1000, 896),  // 128 kept back
        (256, 1000, 128),
        (100, 1000, 50),  // a small limit: half of it kept back
        (2, 1000, 1),  // at least one client
    ])
    func connectionsLeaveTheReserveFree(soft: Int, configured: Int, cap: Int) {
        #expect(DescriptorLimit(soft: soft, hard: nil).connectionCap(configured: configured) == cap)
    }

    @Test func raisingReportsTheLimitInForce() {
        let before = DescriptorLimit.current()
        let (after, failure) = DescriptorLimit.raiseSoftLimitToHard()
        #expect(failure == nil)
        #expect(after.soft >= before.soft)
        if let hard = after.hard { #expect(after.soft == hard) }
    }
}
