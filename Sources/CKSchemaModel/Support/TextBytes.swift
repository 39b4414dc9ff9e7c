import Foundation

/// Byte-level facts about a text file every reader needs: where UTF-8 breaks, the line and
/// column of a byte, a size in words. Depends on nothing (docs/architecture.md).
public enum TextBytes {
    public static func formatBytes(_ n: Int) -> String {
        if n >= 1024 * 1024 { return String(format: "%.1f MB", Double(n) / 1_048_576) }
        if n >= 1024 { return String(format: "%.1f KB", Double(n) / 1024) }
        return "\(n) bytes"
    }

    /// The byte offset of the first byte that breaks UTF-8, or nil.
    public static func firstInvalidUTF8(_ data: Data) -> Int? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            let b = raw.bindMemory(to: UInt8.self)
            var i = 0
            let n = b.count
            let base = raw.baseAddress
            while i < n {
                // Eight ASCII bytes at a time: the common case in schema and record files.
                if let base, i + 8 <= n, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
                let c = b[i]
                if c < 0x80 { i += 1; continue }
                var need = 0
                var min: UInt32 = 0
                var cp: UInt32 = 0
                if c & 0xE0 == 0xC0 { need = 1; cp = UInt32(c & 0x1F); min = 0x80 }
                else if c & 0xF0 == 0xE0 { need = 2; cp = UInt32(c & 0x0F); min = 0x800 }
                else if c & 0xF8 == 0xF0 { need = 3; cp = UInt32(c & 0x07); min = 0x10000 }
                else { return i }
                if i + need >= n { return i }
                for k in 1...need {
                    let cc = b[i + k]
                    if cc & 0xC0 != 0x80 { return i }
                    cp = (cp << 6) | UInt32(cc & 0x3F)
                }
                if cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) { return i }
                i += need + 1
            }
            return nil
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    public static func lineColumn(ofByte offset: Int, in data: Data) -> (Int, Int) {
        var line = 1, col = 1
        var i = data.startIndex
        let end = data.startIndex + min(offset, data.count)
        while i < end {
            let c = data[i]
            if c == 0x0A { line += 1; col = 1 } else if c & 0xC0 != 0x80 { col += 1 }
            i += 1
        }
        return (line, col)
    }
}
