import Foundation
import CKSchemaModel

/// Where each line of a file begins: the one place byte offsets become 1-based line:column.
///
/// Columns count Unicode scalars, as `SourceLocation` does (editors and Xcode count them so).
/// A line ends at `\n`, `\r\n` or a lone `\r`.
public struct SwiftLineTable: Sendable, Hashable {
    /// The byte offset at which each line starts; the first is 0.
    public private(set) var lineStarts: [Int32]

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var starts: [Int32] = [0]
        let n = bytes.count
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
        // The scalars before `offset` on its line, eight bytes at a time (a byte loop here was 3%
        // of the dense SwiftData import, a place for every property).
        guard let base = bytes.baseAddress, end > k else { return (line, 1) }
        return (line, 1 + UTF8Counting.scalars(base + k, end - k))
    }
}
