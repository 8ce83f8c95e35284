import Foundation
import QPlayTestSupport

/// The Content-Security-Policy the web remote must send for the page it serves, worked
/// out here from the page's HTML (Python's hashlib, not the generator's table): nothing
/// from elsewhere, and of inline scripts and styles only the page's own, by their SHA-256
/// (what a comment names is no element).
enum WebPagePolicy {
    static func expected(forPage html: String) throws -> String {
        let script = """
            import base64, hashlib, re, sys
            html = re.sub(r"<!--.*?-->", "", sys.stdin.read(), flags=re.S)
            policy = ["default-src 'self'"]
            for tag in ("script", "style"):
                hashes = ["'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
                          for s in re.findall(rf"<{tag}>(.*?)</{tag}>", html, re.S)]
                if hashes:
                    policy.append(f"{tag}-src 'self' " + " ".join(hashes))
            print("; ".join(policy))
            """
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script], stdin: Data(html.utf8))
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
