/// ISO 8601 timestamp text, read one way everywhere: the plain record shape (`validate`,
/// `records import`), migration constants, and predicates' `CAST("2026-05-01T00:00:00Z",
/// "NSDate")`. Its home is the lowest layer so that the predicate reader and the record wire
/// format share it.
package enum ISOTimestamp {
    /// Milliseconds since 1970 of `YYYY-MM-DD`, optionally followed by `THH:MM[:SS[.fff]]` and
    /// `Z` or `±HH:MM` (fractions past milliseconds dropped; no zone means UTC), naming a real
    /// day and time; nil when the text is not one.
    package static func milliseconds(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int64? {
        func digits(_ at: Int, _ count: Int) -> Bool {
            guard at + count <= n else { return false }
            for i in at..<(at + count) where p[i] < 0x30 || p[i] > 0x39 { return false }
            return true
        }
        func number(_ at: Int, _ count: Int) -> Int {
            var v = 0
            for i in at..<(at + count) { v = v * 10 + Int(p[i] - 0x30) }
            return v
        }
        guard digits(0, 4), n >= 10, p[4] == 0x2D, digits(5, 2), p[7] == 0x2D, digits(8, 2) else { return nil }
        let year = number(0, 4), month = number(5, 2), day = number(8, 2)
        guard (1...12).contains(month), day >= 1, day <= daysIn(month, of: year) else { return nil }
        var seconds = 0, millis = 0, offset = 0
        if n > 10 {
            guard p[10] == UInt8(ascii: "T") || p[10] == 0x20, digits(11, 2), n >= 16, p[13] == 0x3A, digits(14, 2) else { return nil }
            let hour = number(11, 2), minute = number(14, 2)
            var second = 0
            var i = 16
            if i < n, p[i] == 0x3A { guard digits(i + 1, 2) else { return nil }; second = number(i + 1, 2); i += 3 }
            guard hour < 24, minute < 60, second < 60 else { return nil }
            seconds = hour * 3600 + minute * 60 + second
            if i < n, p[i] == 0x2E {
                i += 1
                let s = i
                while i < n, p[i] >= 0x30, p[i] <= 0x39 {
                    if i - s < 3 { millis = millis * 10 + Int(p[i] - 0x30) }
                    i += 1
                }
                if i == s { return nil }
                for _ in min(i - s, 3)..<3 { millis *= 10 }
            }
            if i < n {
                if p[i] == UInt8(ascii: "Z") {
                    guard i + 1 == n else { return nil }
                } else if p[i] == 0x2B || p[i] == 0x2D {
                    guard digits(i + 1, 2) else { return nil }
                    let sign = p[i] == 0x2B ? 1 : -1
                    let hours = number(i + 1, 2)
                    i += 3
                    if i < n, p[i] == 0x3A { i += 1 }
                    guard digits(i, 2), i + 2 == n else { return nil }
                    let minutes = number(i, 2)
                    guard hours < 24, minutes < 60 else { return nil }
                    offset = sign * (hours * 3600 + minutes * 60)
                } else {
                    return nil
                }
            }
        }
        // Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        // Four-digit years keep every value far inside Int64: no conversion can trap.
        return Int64((days * 86_400 + seconds - offset) * 1000 + millis)
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `milliseconds` over a Swift string's bytes.
    package static func milliseconds(_ s: String) -> Int64? {
        var s = s
        return s.withUTF8 { b in b.baseAddress.flatMap { milliseconds($0, b.count) } }
    }
}
