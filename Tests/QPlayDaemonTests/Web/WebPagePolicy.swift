import Foundation
import QPlayTestSupport

/// The Content-Security-Policy the web remote must send for the page it serves, worked
/// out here from the page's HTML (Python's hashlib, not the generator's table): nothing
/// from elsewhere, and of inline scripts only the page's own, by their SHA-256.
enum WebPagePolicy {
    static func expected(forPage html: String) throws -> String {
        let script = """
            import base64, hashlib, re, sys
            html = sys.stdin.read()
            print(" ".join("'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
                           for s in re.findall(r"<script>(.*?)</script>", html, re.S)))
            """
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script], stdin: Data(html.utf8))
        let hashes = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return hashes.isEmpty ? "default-src 'self'" : "default-src 'self'; script-src 'self' \(hashes)"
    }
}
