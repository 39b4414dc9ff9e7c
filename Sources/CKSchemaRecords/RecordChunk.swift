import Foundation
import CKSchemaModel

/// A block of whole records read from one input, handed to one checking thread.
final class RecordChunk: @unchecked Sendable {
    /// Where a record of a JSON array (or a sequence of JSON values) sits in `bytes`.
    struct Span: Sendable {
        var start: Int
        var end: Int
        var line: Int
        var column: Int
    }

    let capacity: Int
    /// `capacity` bytes, then `JSONTape.padding` more to spare: the checker's fused path reads
    /// a record in place, past its end (`RecordChecker.check(inPlace:)`).
    let bytes: UnsafeMutablePointer<UInt8>
    var count = 0
    /// NDJSON: nil (the checker splits lines). JSON arrays: the records' spans.
    var spans: [Span]?
    /// Newlines in the chunk, when the reader counted them (JSON arrays).
    var lines = 0
    /// Problems the reader found (bytes between records that are not records, an
    /// over-long line): offset within the chunk's lines, message.
    var readerProblems: [(line: Int, column: Int, code: RuleInfo, message: String, countsAsRecord: Bool)] = []

    init(capacity: Int) {
        self.capacity = capacity
        if capacity == RecordChunkReader.blockSize {
            bytes = BlockPool.shared.take()
        } else {
            bytes = .allocate(capacity: capacity + JSONTape.padding)
            (bytes + capacity).initialize(repeating: 0, count: JSONTape.padding)
        }
    }

    deinit {
        if capacity == RecordChunkReader.blockSize { BlockPool.shared.give(bytes) } else { bytes.deallocate() }
    }
}

extension RecordChunk {
    /// Calls `body` for each line of an NDJSON block, in order, with the line's number in the
    /// block (0-based) and where its bytes start and end (the newline excluded). Returns the
    /// number of newlines. The one line splitter of `validate` and `records import`.
    @inline(__always)
    func forEachLine(_ body: (_ line: Int, _ start: Int, _ end: Int) throws -> Void) rethrows -> Int {
        let p = UnsafePointer(bytes)
        let n = count
        var start = 0
        var line = 0
        while start < n {
            var end = n
            if let nl = memchr(p + start, 0x0A, n - start) {
                end = UnsafeRawPointer(nl).assumingMemoryBound(to: UInt8.self) - p
            }
            try body(line, start, end)
            if end < n { line += 1 }
            start = end + 1
        }
        return line
    }

    /// True when `bytes[start..<end]` is only spaces, tabs and carriage returns: a blank
    /// NDJSON line, which is no record.
    @inline(__always)
    func isBlank(_ start: Int, _ end: Int) -> Bool {
        var k = start
        while k < end, bytes[k] == 0x20 || bytes[k] == 0x09 || bytes[k] == 0x0D { k += 1 }
        return k == end
    }
}

/// Recycles the reader's 1 MB blocks. Blocks are freed on checking threads and taken on
/// the reading thread; without recycling, glibc's per-thread arenas and its moving mmap
/// threshold let resident memory creep up with every block.
final class BlockPool: @unchecked Sendable {
    static let shared = BlockPool()
    private let lock = NSLock()
    private var free: [UnsafeMutablePointer<UInt8>] = []

    func take() -> UnsafeMutablePointer<UInt8> {
        lock.lock()
        defer { lock.unlock() }
        if let p = free.popLast() { return p }
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: RecordChunkReader.blockSize + JSONTape.padding)
        // The bytes to spare are defined (the fused path loads words that reach into them).
        (p + RecordChunkReader.blockSize).initialize(repeating: 0, count: JSONTape.padding)
        return p
    }

    func give(_ p: UnsafeMutablePointer<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        if free.count < 64 { free.append(p) } else { p.deallocate() }
    }
}
