import Foundation
import SystemSupport

/// Writes to standard error, with a self-erasing progress line when it is a terminal.
struct Terminal {
    /// True when standard error is a terminal (not a pipe, file or cron mail).
    let isInteractive = isatty(STDERR_FILENO) != 0
    private var progressShown = false

    /// Replaces the progress line with `text`, cut to the terminal's width.
    mutating func progress(_ text: String) {
        guard isInteractive else { return }
        write("\r\u{1B}[2K" + String(text.prefix(Self.columns - 1)))
        progressShown = true
    }

    /// A progress bar, `[########............]  40%  text`, for step `done` of `total`.
    mutating func progress(_ text: String, done: Int, of total: Int) {
        let width = 20
        let filled = total > 0 ? min(width, width * done / total) : 0
        let percent = String(total > 0 ? min(100, 100 * done / total) : 0)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        progress("[\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent)%  \(text)")
    }

    /// `$COLUMNS` when set (shells export it), else 80.
    private static let columns: Int = {
        let environment = getenv("COLUMNS").map { String(cString: $0) }
        return environment.flatMap(Int.init).map { max($0, 20) } ?? 80
    }()

    mutating func clearProgress() {
        guard progressShown else { return }
        write("\r\u{1B}[2K")
        progressShown = false
    }

    /// Prints `error: ` and `text`, each line of it prefixed.
    mutating func error(_ text: String) {
        clearProgress()
        write(text.split(separator: "\n", omittingEmptySubsequences: false).map { "error: \($0)\n" }.joined())
    }

    /// Prints `text` as a line of its own (after clearing the progress line).
    mutating func note(_ text: String) {
        clearProgress()
        write(text + "\n")
    }

    mutating func warning(_ text: String) {
        clearProgress()
        write("warning: " + text + "\n")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
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

/// `count` with the noun in the right number: `1 query`, `2 queries`, `0 bundles`.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}

/// `rows` as lines of left-aligned columns two spaces apart, each line starting with `indent`.
func alignedColumns(_ rows: [[String]], indent: String) -> [String] {
    let widths = (0..<(rows.map(\.count).max() ?? 0)).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    return rows.map { row in
        indent + row.enumerated().map { column, cell in column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0) }.joined()
    }
}
