#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard error, with a self-erasing progress line when it is a terminal.
struct Terminal {
    /// True when standard error is a terminal (not a pipe, file or cron mail).
    let isInteractive = isatty(STDERR_FILENO) != 0
    private var progressShown = false

    mutating func progress(_ text: String) {
        guard isInteractive else { return }
        write("\r\u{1B}[2K" + text)
        progressShown = true
    }

    mutating func clearProgress() {
        guard progressShown else { return }
        write("\r\u{1B}[2K")
        progressShown = false
    }

    mutating func error(_ text: String) {
        clearProgress()
        write("error: " + text + "\n")
    }

    mutating func warning(_ text: String) {
        clearProgress()
        write("warning: " + text + "\n")
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// `1.2 MB`, `312 kB`, `845 B`.
func formatBytes(_ count: Int) -> String {
    switch count {
    case ..<1_000: return "\(count) B"
    case ..<1_000_000: return String(format1: Double(count) / 1_000) + " kB"
    case ..<1_000_000_000: return String(format1: Double(count) / 1_000_000) + " MB"
    default: return String(format1: Double(count) / 1_000_000_000) + " GB"
    }
}

extension String {
    /// One decimal place without Foundation's locale-dependent formatting.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
