import CKSchema
import Foundation

/// The records-per-second line a terminal shows on standard error while validating.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var shown = false

    func show(_ p: ValidationProgress) {
        lock.lock()
        defer { lock.unlock() }
        let rate = p.seconds > 0 ? Double(p.records) / p.seconds : 0
        let mb = Double(p.bytes) / 1_048_576
        let line = String(format: "\r%d records, %.1f MB, %.0f records/s", p.records, mb, rate)
        FileHandle.standardError.write(Data(line.utf8))
        shown = true
    }

    func clear() {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)); shown = false }
    }
}
