import Foundation
import Testing
@testable import CKSchemaRecords

/// The checker's byte-keyed tables (field names, type names, type tags) read keys a word at a
/// time: every key of every length is found, and a key that differs in one byte is not.
@Suite struct ByteTableTests {
    @Test func keysOfEveryLengthAndTheirNearMisses() {
        let keys = (0...40).map { n in String((0..<n).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) }) }
        let table = ByteTable(keys.enumerated().map { (key: $0.element, value: $0.offset) })
        for (value, key) in keys.enumerated() {
            var bytes = Array(key.utf8)
            #expect(bytes.withUnsafeBufferPointer { table.lookup($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) } == value, "\(key)")
            for k in bytes.indices {
                bytes[k] ^= 0x20
                #expect(bytes.withUnsafeBufferPointer { table.lookup($0.baseAddress!, $0.count) } == -1, "\(key) changed at \(k)")
                bytes[k] ^= 0x20
            }
        }
    }
}

/// A double's range is read only when it can be out of range (an exponent, or 300 characters
/// and more); the answer is the one `Double(_:)` gives.
@Suite struct FiniteDoubleTests {
    @Test(arguments: ["1.5", "-0.0", "1e308", "1E308", "1e309", "-1e400", "1e-400", "2.5e+10",
                      String(repeating: "9", count: 299) + ".5", String(repeating: "9", count: 308), String(repeating: "9", count: 309),
                      "1" + String(repeating: "0", count: 399) + ".0"])
    func finiteAsDoubleSays(number: String) {
        var tape = JSONTape()
        let bytes = Array(number.utf8)
        let error = bytes.withUnsafeBufferPointer { tape.parse($0.baseAddress!, $0.count) }
        #expect(error == nil)
        let finite = bytes.withUnsafeBufferPointer { RecordChecker.isFiniteDouble($0.baseAddress!, tape.tokens[0]) }
        #expect(finite == Double(number)!.isFinite, "\(number.prefix(20))... (\(number.count) characters)")
    }
}
