import Foundation
import CKSchemaModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file or a pipe in blocks that end on a record boundary: the last newline for
/// NDJSON, the end of the last complete element for a JSON array. Memory stays bounded
/// by the block size and the longest record allowed.
final class RecordChunkReader {
    enum Mode { case ndjson, array, sequence }

    /// A block holds about this much; a single record may grow it up to `maxRecordBytes`.
    static let blockSize = 1 << 20
    /// A line or element longer than this is skipped with a diagnostic (CloudKit's record
    /// limit is 1 MB; base64 and JSON framing cannot make a valid one this long).
    static let maxRecordBytes = 16 << 20

    private let fd: Int32
    private let mode: Mode
    private var pending: RecordChunk
    private var eof = false
    private var atStart = true
    /// Skipping the rest of an over-long line.
    private var skipping = false
    private var skippedBytes = 0

    // JSON array scanner state.
    private var depth = 0
    private var inString = false
    private var escape = false
    private var elementStart = -1
    private var elementLine = 0
    private var elementColumn = 0
    private var scanPos = 0
    private var line = 0
    private var lineStart = 0
    private var arrayClosed = false
    private var strayReported = false
    private var carryColumn = 0
    private var spans: [RecordChunk.Span] = []
    private var problems: [(line: Int, column: Int, code: RuleInfo, message: String, countsAsRecord: Bool)] = []

    /// `prefix`: bytes already read from `fd` (format detection), read first.
    init(fd: Int32, mode: Mode, prefix: [UInt8] = []) {
        self.fd = fd
        self.mode = mode
        pending = RecordChunk(capacity: max(Self.blockSize, prefix.count))
        prefix.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { memcpy(pending.bytes, base, b.count) }
        }
        pending.count = prefix.count
        if mode == .sequence { depth = 1 }
    }

    /// The next block of whole records, or nil at the end. Throws when reading fails.
    func next() throws(ReadFailure) -> RecordChunk? {
        while true {
            if eof && pending.count == 0 && !skipping {
                if mode != .ndjson { return finishArray() }
                return nil
            }
            if !eof && pending.count < pending.capacity {
                let n = pending.capacity - pending.count
                var got = 0
                repeat { got = read(fd, pending.bytes + pending.count, n) } while got < 0 && errno == EINTR
                if got < 0 { throw ReadFailure(message: String(cString: strerror(errno))) }
                if got == 0 { eof = true } else { pending.count += got }
                if atStart, pending.count >= 3, pending.bytes[0] == 0xEF, pending.bytes[1] == 0xBB, pending.bytes[2] == 0xBF {
                    memmove(pending.bytes, pending.bytes + 3, pending.count - 3)
                    pending.count -= 3
                    atStart = false
                } else if pending.count >= 3 || eof { atStart = false }
                if got > 0 && pending.count < pending.capacity { continue }
            }
            if let chunk = mode == .ndjson ? cutLines() : cutElements() { return chunk }
        }
    }

    // MARK: NDJSON

    private func cutLines() -> RecordChunk? {
        let buf = pending
        if skipping {
            // Drop bytes up to the next newline: an over-long line is never held whole.
            if let nl = memchr(buf.bytes, 0x0A, buf.count) {
                let k = UnsafeMutableRawPointer(nl).assumingMemoryBound(to: UInt8.self) - buf.bytes
                skippedBytes += k
                skipping = false
                let marker = RecordChunk(capacity: 1)
                marker.readerProblems = [(0, 1, RecordsRules.syntax, overlongMessage(skippedBytes), true)]
                marker.lines = 1
                marker.spans = []
                carry(from: k + 1)
                return marker
            }
            skippedBytes += buf.count
            buf.count = 0
            if eof {
                skipping = false
                let marker = RecordChunk(capacity: 1)
                marker.readerProblems = [(0, 1, RecordsRules.syntax, overlongMessage(skippedBytes), true)]
                marker.spans = []
                return marker
            }
            return nil
        }
        if eof {
            let out = pending
            pending = RecordChunk(capacity: Self.blockSize)
            return out.count > 0 ? out : nil
        }
        // The last newline (memrchr is not portable; a line is short, so scanning back is cheap).
        var k = buf.count - 1
        while k >= 0 && buf.bytes[k] != 0x0A { k -= 1 }
        guard k >= 0 else {
            // No newline in a full block: one long line.
            if buf.capacity < Self.maxRecordBytes { grow(); return nil }
            skipping = true
            skippedBytes = buf.count
            buf.count = 0
            return nil
        }
        let out = buf
        carry(from: k + 1)
        out.count = k + 1
        return out
    }

    private func overlongMessage(_ n: Int) -> String {
        "the line is \(RecordChecker.formatSize(n)) long, more than the \(Self.maxRecordBytes >> 20) MB ckschema reads as one record and far beyond CloudKit's 1 MB record limit; skipped"
    }

    /// Moves the bytes from `offset` on into a fresh block, which becomes `pending`.
    private func carry(from offset: Int) {
        let old = pending
        let rest = old.count - offset
        let fresh = RecordChunk(capacity: max(Self.blockSize, rest * 2))
        if rest > 0 { memcpy(fresh.bytes, old.bytes + offset, rest) }
        fresh.count = rest
        pending = fresh
    }

    private func grow() {
        let bigger = RecordChunk(capacity: min(pending.capacity * 2, Self.maxRecordBytes))
        memcpy(bigger.bytes, pending.bytes, pending.count)
        bigger.count = pending.count
        pending = bigger
    }

    // MARK: JSON array / sequence

    private func cutElements() -> RecordChunk? {
        let buf = pending
        let p = buf.bytes
        var i = scanPos
        var lastEnd = -1
        var linesAtLastEnd = 0
        var lineStartAtLastEnd = 0
        while i < buf.count {
            let c = p[i]
            if c == 0x0A { line += 1; lineStart = i + 1 }
            if inString {
                if escape { escape = false }
                else if c == UInt8(ascii: "\\") { escape = true }
                else if c == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                if depth == 1 && elementStart < 0 { stray(i) }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 {
                    if c == UInt8(ascii: "[") && !arrayClosed { depth = 1 } else { stray(i) }
                } else {
                    if depth == 1 {
                        elementStart = i
                        elementLine = line
                        elementColumn = column(p, lineStart, i)
                    }
                    depth += 1
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 1 {
                    if c == UInt8(ascii: "]") && mode == .array { depth = 0; arrayClosed = true } else { stray(i) }
                } else if depth > 1 {
                    depth -= 1
                    if depth == 1 && elementStart >= 0 {
                        spans.append(RecordChunk.Span(start: elementStart, end: i + 1, line: elementLine, column: elementColumn))
                        elementStart = -1
                        lastEnd = i + 1
                        linesAtLastEnd = line
                        lineStartAtLastEnd = lineStart
                    }
                } else { stray(i) }
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","):
                break
            default:
                if depth <= 1 && elementStart < 0 { stray(i) }
            }
            i += 1
        }
        scanPos = i
        if eof {
            return finishArray()
        }
        guard lastEnd >= 0 else {
            if buf.count == buf.capacity {
                if buf.capacity < Self.maxRecordBytes { grow(); return nil }
                // One element larger than the limit: give up on this input.
                problems.append((line, 1, RecordsRules.syntax, "a record is larger than \(Self.maxRecordBytes >> 20) MB; stopped reading this file", true))
                eof = true
                pending.count = 0
                elementStart = -1
                // Reading stopped on purpose: the file is not truncated, say nothing more.
                gaveUp = true
                return finishArray()
            }
            return nil
        }
        // Hand over everything up to the last complete element.
        let out = buf
        out.spans = spans
        out.lines = linesAtLastEnd
        out.readerProblems = problems
        spans = []
        problems = []
        let carried = column(buf.bytes, lineStartAtLastEnd, lastEnd) - 1
        carry(from: lastEnd)
        carryColumn = carried
        columnLineStart = Int.min
        out.count = lastEnd
        scanPos -= lastEnd
        if elementStart >= 0 {
            // An element already begun moves to the next block, with its line.
            elementStart -= lastEnd
            elementLine -= linesAtLastEnd
        }
        line -= linesAtLastEnd
        lineStart -= lastEnd
        return out
    }

    private var finished = false
    private var gaveUp = false

    private func finishArray() -> RecordChunk? {
        guard !finished else { return nil }
        finished = true
        if gaveUp {
            // The over-long record was reported; its unread rest is not a truncation.
        } else if elementStart >= 0 || inString || depth > 1 {
            problems.append((line, 1, RecordsRules.syntax, "the file ends inside a record; it is truncated", true))
        } else if mode == .array && !arrayClosed {
            problems.append((line, 1, RecordsRules.syntax, "the JSON array is not closed with ']'; the file is truncated", false))
        }
        let out = pending
        out.spans = spans
        out.lines = line
        out.readerProblems = problems
        spans = []
        problems = []
        pending = RecordChunk(capacity: 1)
        return out
    }

    private func stray(_ i: Int) {
        guard !strayReported else { return }
        strayReported = true
        problems.append((line, column(pending.bytes, lineStart, i), RecordsRules.recordShape,
                         mode == .array ? "expected a record (a JSON object) in the array" : "expected a record (a JSON object)", false))
    }

    /// 1-based column of byte `to`, on the line that starts at `from` (negative: it began in
    /// an earlier block, `carryColumn` characters before this block's first byte).
    ///
    /// Goes on from the last column asked for on the same line: a minified one-line array
    /// asks for the column of every element, and counting each from the line's start made
    /// it quadratic (2.7 MB took 14 s). `carry` forgets the place, so each block is counted
    /// at most once more.
    private func column(_ p: UnsafeMutablePointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        if columnLineStart != from || columnAt > to {
            columnLineStart = from
            columnAt = max(0, from)
            columnValue = from < 0 ? carryColumn + 1 : 1
        }
        var c = columnValue
        var i = columnAt
        while i < to { if p[i] & 0xC0 != 0x80 { c += 1 }; i += 1 }
        columnAt = to
        columnValue = c
        return c
    }

    /// Where `column` stopped: the line's start it counted from, the byte and its column.
    private var columnLineStart = Int.min
    private var columnAt = 0
    private var columnValue = 1
}

/// Reading an input failed (not a record problem: the file itself).
struct ReadFailure: Error {
    var message: String
}
