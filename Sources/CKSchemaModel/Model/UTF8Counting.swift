/// Counting in UTF-8 text without decoding it. Every reader places its diagnostics at columns
/// counted in Unicode scalars, as `SourceLocation` says; the scalars of a run of bytes are the
/// bytes that are not continuation bytes (10xxxxxx).
package enum UTF8Counting {
    /// The Unicode scalars that start in `p[0..<n]`, eight bytes at a time: a byte-wise loop
    /// was 4% of `validate` and of `.ckdb` import (Benchmarks/RESULTS.md, issue 36).
    @inlinable @inline(__always)
    package static func scalars(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        let raw = UnsafeRawPointer(p)
        var continuation = 0
        var k = 0
        while k + 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            // The high bit of each byte whose top bits are 10: bit 7 set and bit 6 clear,
            // counted only in a word that has a byte >= 0x80 (x86-64's baseline has no
            // popcount instruction: counting every ASCII word was most of this loop).
            let high = v & ~(v << 1) & 0x8080_8080_8080_8080
            if high != 0 { continuation += high.nonzeroBitCount }
            k += 8
        }
        while k < n {
            if p[k] & 0xC0 == 0x80 { continuation += 1 }
            k += 1
        }
        return n - continuation
    }

    /// How many bytes from `p` on, at most `n`, are spaces (0x20), eight at a time: cktool
    /// aligns a `.ckdb` export's columns with runs of them.
    @inlinable @inline(__always)
    package static func spaces(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        let raw = UnsafeRawPointer(p)
        var k = 0
        while k + 8 <= n {
            let v = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)) ^ 0x2020_2020_2020_2020
            if v != 0 { return k + v.trailingZeroBitCount >> 3 }
            k += 8
        }
        while k < n, p[k] == 0x20 { k += 1 }
        return k
    }
}
