import QPlayTestSupport
import Testing

/// The Simple Player page's accessibility in real headless Chromium against a real qplayd
/// (scripts/lib/page_accessibility.py, on WebPageTests' daemon and library): axe-core's
/// WCAG 2.0-2.2 A and AA rules and best practices in the light and the dark scheme, at a
/// phone's width and a desktop's, and on the sign-in page; and the checklist of
/// docs/arch/web.md ("Accessibility") — landmarks and names, the Tab order with a visible
/// focus outline, the palette's contrast. A failure prints each problem (axe: the rule,
/// the element, the help).
@Suite(.serialized, .tags(.peer), .group(.peer))
struct WebPageAccessibilityTests {
    static let driver = SampleCatalog.repositoryRoot.appending("scripts/lib/page_accessibility.py")

    @Test(arguments: [390, 1280])
    func axeFindsNoViolations(width: Int) throws {
        try WebPageTests().run("axe", width: width, driver: Self.driver)
    }

    @Test func axeFindsNoViolationsOnTheSignInPage() throws {
        try WebPageTests().run("axe_sign_in", config: "http_password = \"sofa and slippers\"\n", driver: Self.driver)
    }

    @Test func landmarksListsAndEveryControlNamed() throws {
        try WebPageTests().run("names", driver: Self.driver)
    }

    @Test func tabWalksTheControlsAndTheWholeQueueWithAVisibleOutline() throws {
        try WebPageTests().run("keyboard", driver: Self.driver)
    }

    @Test func paletteContrastInBothSchemes() throws {
        try WebPageTests().run("contrast", driver: Self.driver)
    }
}
