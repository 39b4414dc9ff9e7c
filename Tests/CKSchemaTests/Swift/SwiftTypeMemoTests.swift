import Foundation
import Testing
@testable import CKSchemaSwift

/// `SwiftTypeRef.Memo` (issue 36 point 4) is only a cache: for every range of tokens, in any
/// order, it gives what `SwiftTypeRef.parse` gives.
@Suite struct SwiftTypeMemoTests {
    /// Every range of up to `Memo.maxTokens + 1` tokens of `source`, read through the memo
    /// and directly; the memo sees the ranges in reading order, so repeats hit and clashes replace.
    static func agree(_ source: SwiftSource) -> Int {
        var memo = SwiftTypeRef.Memo()
        var checked = 0
        let n = source.tokens.count - 1   // the last token ends the file
        guard n > 0 else { return 0 }
        for start in 0..<n {
            for length in 1...(SwiftTypeRef.Memo.maxTokens + 1) where start + length <= n {
                let r = start..<(start + length)
                let direct = SwiftTypeRef.parse(source, r)
                let cached = memo.parse(source, r)
                if cached != direct {
                    Issue.record("\(source.file) tokens \(r): memo \(String(describing: cached)), parse \(String(describing: direct))")
                    return checked
                }
                checked += 1
            }
        }
        return checked
    }

    @Test func theMemoAgreesWithTheParserOnEveryFixture() throws {
        let root = Paths.fixture("")
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 50)
        var checked = 0
        for f in files.sorted() {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/" + f)))
            checked += Self.agree(SwiftSource(bytes: bytes, file: f))
        }
        #expect(checked > 10_000)
    }

    /// Types that differ only in spacing, token kinds or one byte, and more distinct types
    /// than the memo has slots, so that every slot is replaced at least once.
    @Test func nearMissesAndClashesAreParsedAfresh() {
        var text = """
        var a: String?
        var b: String ?
        var c: [String]
        var d: [ String ]
        var e: [String: Int]
        var f: [String:Int]
        var g: Optional<String>
        var h: Optional < String >
        var i: `String`
        var j: Strinh
        var k: Set<Date>
        var l: Set<Data>
        var m: (Int, Int)
        var n: ( Int,Int )
        var o: String/* a comment */?
        var p: String/* a commenu */?

        """
        for k in 0..<(SwiftTypeRef.Memo.slots * 3) { text += "var v\(k): [T\(k % 700): U\(k)]?\n" }
        let s = SwiftSource(bytes: Array(text.utf8), file: "near.swift")
        #expect(Self.agree(s) > 20_000)
    }
}
