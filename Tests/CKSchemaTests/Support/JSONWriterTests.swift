import Foundation
import Testing
@testable import CKSchemaModel

/// The one JSON writer's fast paths give what its general path gives: the escaper's
/// eight-bytes-at-a-time test of "nothing to escape", and integers written without a `String`.
@Suite struct JSONWriterTests {
    /// Every byte value at every place of strings of 1 to 19 bytes (so each place of two words
    /// and a tail): the fast path copies a string only when no byte of it needs an escape, so
    /// the text must decode back to the string, and hold no raw control, quote, backslash,
    /// DEL or `##[`.
    @Test func everyByteAtEveryPlaceIsEscapedOrCopiedAsTheGeneralPathWould() throws {
        for length in 1...19 {
            for place in 0..<length {
                for byte in UInt8(0)...UInt8(0x7F) {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[place] = byte
                    let text = String(decoding: bytes, as: UTF8.self)
                    let json = JSONValue.string(text).rendered()
                    let inner = json.utf8.dropFirst().dropLast()
                    let plain = byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C
                    if plain && byte != UInt8(ascii: "#") {
                        #expect(json == "\"\(text)\"", "byte \(byte) at \(place) of \(length)")
                    } else {
                        // Escaped (or, for `#` outside `##[`, kept): never raw where JSON or a terminal acts on it.
                        #expect(!inner.contains { $0 < 0x20 || $0 == 0x7F }, "byte \(byte) at \(place) of \(length): \(json)")
                    }
                    let back = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
                    #expect(back == text, "byte \(byte) at \(place) of \(length): \(json)")
                }
            }
        }
    }

    /// Non-ASCII (two-, three- and four-byte UTF-8) anywhere in a long string takes the
    /// general path and reads back the same.
    @Test(arguments: ["é", "中", "😀", "\u{2028}", "\u{FEFF}"])
    func nonASCIIInAWordIsWrittenByTheGeneralPath(_ scalar: String) throws {
        for place in 0..<17 {
            var text = String(repeating: "b", count: 17)
            text.insert(contentsOf: scalar, at: text.index(text.startIndex, offsetBy: place))
            let json = JSONValue.string(text).rendered()
            let back = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
            #expect(back == text)
        }
    }

    /// Integers as `String(i)` writes them, at the edges of Int64 and of each digit count;
    /// whole doubles keep their `.0`.
    @Test func integersAreWrittenAsStringWritesThem() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]
        var p: Int64 = 1
        for _ in 0..<18 { p *= 10; values += [p - 1, p, p + 1, -p, -(p - 1)] }
        for v in values {
            #expect(JSONValue.int(v).text == String(v))
        }
        #expect(JSONValue.double(-0.0).text == "0.0")
        #expect(JSONValue.double(-12.0).text == "-12.0")
        #expect(JSONValue.double(999_999_999_999_999).text == "999999999999999.0")
        #expect(JSONValue.double(12.5).text == "12.5")
    }
}
