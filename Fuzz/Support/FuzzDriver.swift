#if canImport(Glibc)
import Glibc
#endif

/// The `main` of every fuzz target. Built by scripts/fuzz (QPLAY_FUZZ), it hands control
/// to libFuzzer, which calls `check` with each generated input. In the normal build it
/// replays inputs instead: every file named on the command line, and every file in a
/// folder named there — the committed corpus and saved crashes, which the test suite
/// runs this way without sanitizers.
public enum FuzzDriver {
    public static func run(_ check: @escaping ([UInt8]) -> Void) -> Never {
        currentCheck = check
        #if QPLAY_FUZZ
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        #else
        exit(replay(Array(CommandLine.arguments.dropFirst()), check))
        #endif
    }

    /// Runs `check` on each input file; the exit status for the process.
    static func replay(_ arguments: [String], _ check: ([UInt8]) -> Void) -> Int32 {
        guard !arguments.isEmpty else {
            printError("usage: \(CommandLine.arguments[0]) FILE|FOLDER…  (replays inputs; scripts/fuzz fuzzes)")
            return 2
        }
        var count = 0
        for argument in arguments {
            guard let files = InputFiles.list(argument) else {
                printError("cannot read \(argument)")
                return 1
            }
            for file in files {
                guard let bytes = InputFiles.read(file) else {
                    printError("cannot read \(file)")
                    return 1
                }
                check(bytes)
                count += 1
            }
        }
        print("replayed \(count) inputs")
        return 0
    }
}

/// A failed property: the message, then a trap, which libFuzzer reports as a crash
/// and saves the input for (and which fails a replay).
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    printError("fuzz check failed: \(message())")
    abort()
}

func printError(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// libFuzzer's callback is a C function pointer, which captures nothing: the target's
/// check waits here. Set once before fuzzing starts; libFuzzer calls from one thread.
nonisolated(unsafe) private var currentCheck: ([UInt8]) -> Void = { _ in }

#if QPLAY_FUZZ
/// libFuzzer's entry for a program with its own `main` (SwiftPM names the executable's
/// entry point itself, so libFuzzer's `main` cannot be the program's).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// libFuzzer's runtime archive also holds its own `main`, which refers to this symbol.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    currentCheck(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#endif
