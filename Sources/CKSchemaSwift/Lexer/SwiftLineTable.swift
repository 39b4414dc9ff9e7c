import Foundation
import CKSchemaModel

/// Where each line of a file begins: the one place byte offsets become 1-based line:column.
///
/// Columns count Unicode scalars, as `SourceLocation` does (editors and Xcode count them so).
/// A line ends at `\n`, `\r\n` or a lone `\r`.
public struct SwiftLineTable: Sendable, Hashable {
    /// The byte offset at which each line starts; the first is 0.
    public private(set) var lineStarts: [Int32]
    /// True when every byte of the file is ASCII: then a column is its byte's distance from
    /// the line's start, with no byte of the line read.
    public private(set) var isASCII = false

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var starts: [Int32] = [0]
        let n = bytes.count
        isASCII = Self.allASCII(bytes)
        // Most files have no `\r`: then every line ends at a `\n`, found with memchr (a byte
        // loop was 3% of `import`'s instructions on the benchmark folder, Benchmarks/swift).
        if let base = bytes.baseAddress, n > 0, memchr(base, 0x0D, n) == nil {
            starts.reserveCapacity(n / 32 + 1)
            var k = 0
            while k < n, let p = memchr(base + k, 0x0A, n - k) {
                k = base.distance(to: p.assumingMemoryBound(to: UInt8.self)) + 1
                starts.append(Int32(truncatingIfNeeded: k))
            }
            lineStarts = starts
            return
        }
        var k = 0
        while k < n {
            let c = bytes[k]
            k += 1
            if c == 0x0A || (c == 0x0D && (k >= n || bytes[k] != 0x0A)) { starts.append(Int32(truncatingIfNeeded: k)) }
        }
        lineStarts = starts
    }

    /// No byte of `bytes` is 0x80 or above (eight at a time).
    static func allASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
        let n = bytes.count
        var k = 0
        var seen: UInt64 = 0
        while k + 8 <= n {
            seen |= base.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            k += 8
        }
        while k < n { seen |= UInt64(bytes[k]); k += 1 }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    public init(_ bytes: [UInt8]) { self = bytes.withUnsafeBufferPointer { SwiftLineTable($0) } }

    /// The 1-based line holding byte `offset`.
    public func line(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(lineStarts[mid]) <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    /// The 1-based line and column (in Unicode scalars) of byte `offset` in `bytes`.
    public func location(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let line = line(of: offset)
        let k = Int(lineStarts[line - 1])
        let end = min(offset, bytes.count)
        if isASCII { return (line, 1 + max(0, end - k)) }
        return (line, Self.column(from: k, to: end, in: bytes))
    }

    /// `location(of:in:)` counting the line's scalars whatever the file holds (the test's).
    func locationCountingScalars(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let line = line(of: offset)
        return (line, Self.column(from: Int(lineStarts[line - 1]), to: min(offset, bytes.count), in: bytes))
    }

    /// 1 + the scalars that begin in `bytes[k..<end]`, eight bytes at a time (a byte loop here
    /// was 3% of the dense SwiftData import, a place for every property).
    private static func column(from start: Int, to end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress, end > start else { return 1 }
        return 1 + UTF8Counting.scalars(base + start, end - start)
    }
}
