import Foundation
import Testing
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaSwift

/// The Swift lexer: total (every byte in some token), each construct of the lexical grammar
/// one token of the right kind, problems located, and the real parser agreeing on fixtures.
@Suite struct SwiftLexerTests {
    func lex(_ text: String) -> SwiftSource { SwiftSource(bytes: Array(text.utf8), file: "t.swift") }

    /// The significant tokens as `kind:text`, the end of file left out.
    func tokens(_ text: String) -> [String] {
        let s = lex(text)
        return s.tokens.indices.dropLast().map { "\(s.tokens[$0].kind):\(s.text($0))" }
    }

    /// Tokens partition the bytes: each token's trivia starts where the previous one ended.
    func isTotal(_ s: SwiftSource) -> Bool {
        var at: Int32 = 0
        for t in s.tokens {
            guard t.triviaStart == at, t.start >= t.triviaStart, t.end >= t.start else { return false }
            at = t.end
        }
        return Int(at) == s.bytes.count && s.tokens.last?.kind == .endOfFile
    }

    @Test func punctuationNamesAndOperators() {
        #expect(tokens("@Model final class A: B { var x: Int? = nil }") == [
            "at:@", "identifier:Model", "identifier:final", "identifier:class", "identifier:A", "colon::", "identifier:B",
            "leftBrace:{", "identifier:var", "identifier:x", "colon::", "identifier:Int", "operator:?", "operator:=",
            "identifier:nil", "rightBrace:}",
        ])
        #expect(tokens("a?.b ?? c! != d") == ["identifier:a", "operator:?", "period:.", "identifier:b", "operator:??",
                                              "identifier:c", "operator:!", "operator:!=", "identifier:d"])
        #expect(tokens("`default` $0 $name #Unique<A>([\\.x])") == [
            "backtickIdentifier:`default`", "dollarIdentifier:$0", "dollarIdentifier:$name", "poundKeyword:#Unique",
            "operator:<", "identifier:A", "operator:>", "leftParen:(", "leftBracket:[", "backslash:\\", "period:.",
            "identifier:x", "rightBracket:]", "rightParen:)",
        ])
        #expect(tokens("1..<5 a...b x->y") == ["integerLiteral:1", "operator:..<", "integerLiteral:5", "identifier:a",
                                              "operator:...", "identifier:b", "identifier:x", "operator:->", "identifier:y"])
    }

    @Test func numbersInEveryBase() {
        #expect(tokens("0x1F_FF 0o17 0b1010 1_000 1.5 1e10 2.5E-3 0x1p-3 1.description") == [
            "integerLiteral:0x1F_FF", "integerLiteral:0o17", "integerLiteral:0b1010", "integerLiteral:1_000",
            "floatLiteral:1.5", "floatLiteral:1e10", "floatLiteral:2.5E-3", "floatLiteral:0x1p-3",
            "integerLiteral:1", "period:.", "identifier:description",
        ])
    }

    @Test func commentsAreTriviaAndNest() {
        let s = lex("a /* one /* two */ still */ b // line\nc")
        #expect(s.tokens.count == 4)
        #expect(s.text(1) == "b")
        #expect(s.tokens[1].flags.contains(.commentBefore))
        #expect(s.tokens[2].flags.contains(.newlineBefore))
        #expect(s.problems.isEmpty)
        let open = lex("a /* /* */ b")
        #expect(open.problems.map(\.message) == ["unterminated '/*' comment"])
        #expect(isTotal(open))
    }

    @Test func stringsAreOneTokenWithTheirInterpolations() {
        let cases = [
            #""plain \"q\" \\ x""#,
            #""a \("b \("c \(1 + (2))") d") e""#,
            #""\(f(")", "("))""#,
            #""x \(/* ) */ 1) y""#,
            "\"\"\"\n  a \"\" no, \\\"\"\" yes\n  \\(x)\n  \"\"\"",
            ##"#"raw " # is \#(x) and \(not) "#"##,
            ###"##"a "# b"##"###,
            "#\"\"\"\n  raw \"\"\" inside\n  \"\"\"#",
        ]
        for text in cases {
            let s = lex(text)
            #expect(s.tokens.count == 2, "\(text)")
            #expect(s.tokens[0].kind == .stringLiteral, "\(text)")
            #expect(s.problems.isEmpty, "\(text): \(s.problems)")
        }
        #expect(lex(#""a \(b) c""#).tokens[0].flags.contains(.interpolated))
        #expect(lex("#\"x\"#").tokens[0].flags.contains(.raw))
    }

    @Test func stringValues() {
        let s = lex(##"["a\tb", "\u{41}\"", #"r\n"#, "i\(x)", "unterminated"##)
        #expect(s.stringValue(1) == "a\tb")
        #expect(s.stringValue(3) == "A\"")
        #expect(s.stringValue(5) == "r\\n")
        #expect(s.stringValue(7) == nil)
        #expect(s.stringValue(9) == nil)
        let m = lex("\"\"\"\n    one\n      two\n    \"\"\"")
        #expect(m.stringValue(0) == "one\n  two")
    }

    @Test func unterminatedStringsEndAtTheirLine() {
        let s = lex("let a = \"open\nlet b = 1")
        #expect(s.problems.map(\.message) == ["unterminated string literal"])
        #expect(s.location(ofByte: s.problems[0].offset).description == "t.swift:1:9")
        #expect(s.tokens[3].flags.contains(.unterminated))
        #expect(s.text(4) == "let")
        #expect(isTotal(s))
        #expect(lex("\"\"\"\nnever closed").problems.count == 1)
        #expect(lex("\"a \\(b").problems.count == 1)
        #expect(lex("`open").problems.map(\.message) == ["unterminated '`' name"])
    }

    @Test func regexLiteralsWhereAnExpressionBegins() {
        #expect(tokens("let r = /ab+c/") == ["identifier:let", "identifier:r", "operator:=", "regexLiteral:/ab+c/"])
        #expect(tokens("x.split(separator: /[,\\/]\\s*/)").contains("regexLiteral:/[,\\/]\\s*/"))
        #expect(tokens("a / b / c") == ["identifier:a", "operator:/", "identifier:b", "operator:/", "identifier:c"])
        #expect(tokens("(a)/2/(b)") == ["leftParen:(", "identifier:a", "rightParen:)", "operator:/", "integerLiteral:2",
                                       "operator:/", "leftParen:(", "identifier:b", "rightParen:)"])
        #expect(tokens("x /= 2") == ["identifier:x", "operator:/=", "integerLiteral:2"])
        #expect(tokens("#/a/b/#") == ["regexLiteral:#/a/b/#"])
        let multi = lex("let r = #/\n  a / b\n  /#\nlet c = 1")
        #expect(multi.tokens[3].kind == .regexLiteral)
        #expect(multi.tokens[3].flags.contains(.multiline))
        #expect(multi.problems.isEmpty)
        #expect(lex("#/ never").problems.map(\.message) == ["unterminated regex literal"])
    }

    @Test func poundKeywordsAndStrayCharacters() {
        #expect(tokens("#if os(iOS)\n#elseif DEBUG\n#endif").filter { $0.hasPrefix("poundKeyword") } == ["poundKeyword:#if", "poundKeyword:#elseif", "poundKeyword:#endif"])
        let s = lex("a # b \u{7} c")
        #expect(s.problems.count == 2)
        #expect(isTotal(s))
    }

    /// A script's `#!` first line is trivia (swiftc's `skipHashbang`), so every reader of the
    /// lexer takes it, at unchanged places; a `#!` anywhere else is still a stray `#`.
    @Test func anInterpreterLineIsTriviaOnlyAtTheVeryStart() {
        let script = lex("#!/usr/bin/env swift\nimport CloudKit\n")
        #expect(script.problems.isEmpty)
        #expect(isTotal(script))
        #expect(script.tokens[0].triviaStart == 0 && script.tokens[0].flags.contains(.newlineBefore))
        #expect(script.text(0) == "import" && script.location(0).description == "t.swift:2:1")
        #expect(lex("#!").problems.isEmpty && lex("#!").tokens.map(\.kind) == [.endOfFile])
        let late = lex("\n#!/usr/bin/env swift\n")
        #expect(late.problems.count == 1 && late.location(ofByte: late.problems[0].offset).description == "t.swift:2:1")
        #expect(lex(" #!x").problems.count == 1)
    }

    @Test func invalidUTF8IsAProblemAtItsByte() {
        let s = SwiftSource(bytes: Array("let a = 1\nlet ".utf8) + [0xFF, 0xFE] + Array(" = 2".utf8), file: "t.swift")
        #expect(s.problems.first?.kind == .invalidUTF8)
        #expect(s.location(ofByte: s.problems[0].offset).description == "t.swift:2:5")
        #expect(isTotal(s))
        #expect(s.diagnostics(rule: SwiftRules.syntax).first?.code == "CK003")
    }

    @Test func bracketsPairAndUnbalancedOnesAreLocated() {
        let s = lex("f(a[1], { b })")
        #expect(s.matching(1) == 10)
        #expect(s.matching(10) == 1)
        #expect(s.matching(3) == 5)
        #expect(s.matching(7) == 9)
        #expect(s.skipGroup(1) == 11)
        #expect(s.skipGroup(0) == 1)
        #expect(lex("class A { var x = (1 }").problems.map(\.message) == ["'(' is never closed"])
        #expect(lex("a) b").problems.map(\.message) == ["')' closes nothing"])
        #expect(lex("{ {").problems.map(\.message) == ["'{' is never closed"])
    }

    @Test func genericClausesAreSkippedAcrossSplitAngles() throws {
        let s = lex("Set<Array<Int>> x; Optional<[String: Int]>? y; a < b == c")
        let first = try #require(s.skipAngles(1))
        #expect(s.text(first.last) == ">>" && first.used == 2)
        let second = try #require(s.skipAngles(9))
        #expect(s.text(second.last) == ">?" && second.used == 1)
        #expect(s.skipAngles(19) == nil)
    }

    @Test func lineTableCountsScalarsAndEveryLineEnding() {
        let s = lex("a\r\nbé c\rd\n")
        #expect(s.location(1).description == "t.swift:2:1")
        #expect(s.location(2).description == "t.swift:2:4")
        #expect(s.location(3).description == "t.swift:3:1")
        #expect(s.lines.lineStarts == [0, 3, 9, 11])
    }

    /// A file without `\r` takes the memchr path: the same starts as the byte loop.
    @Test func lineTableOfNewlinesOnly() {
        #expect(SwiftLineTable(Array("a\n\nbé c\nd".utf8)).lineStarts == [0, 2, 3, 9])
        #expect(SwiftLineTable(Array("x\n".utf8)).lineStarts == [0, 2])
        #expect(SwiftLineTable([UInt8]()).lineStarts == [0])
        let s = lex("a\n\nbé c\nd")
        #expect(s.location(3).description == "t.swift:4:1")
        #expect(s.location(2).description == "t.swift:3:4")
    }

    @Test func tooDeepInterpolationIsAProblemNotACrash() {
        let deep = String(repeating: "\"\\(", count: 200) + String(repeating: ")\"", count: 200)
        let s = lex(deep)
        #expect(s.problems.contains { $0.message.contains("nested more than") })
        #expect(isTotal(s))
    }

    @Test func theLexicalFixtureLexesWithoutProblem() throws {
        let s = SwiftSource(try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("swift/lexer/Lexical.swift"))), file: "Lexical.swift")
        #expect(s.problems.isEmpty, "\(s.problems)")
        #expect(isTotal(s))
        #expect(s.tokens.filter { $0.kind == .regexLiteral }.count == 3)
        #expect(s.tokens.filter { $0.kind == .stringLiteral }.count == 13)
    }

    /// Every fixture the real parser accepts lexes with no problem, and every lexical
    /// error fixture it refuses, the lexer refuses too.
    @Test(.enabled(if: SwiftParserCheck.available, "swiftc is not on PATH"))
    func theRealParserAgreesOnTheFixtures() throws {
        for file in SwiftParserCheck.fixtureFiles() {
            #expect(SwiftParserCheck.parses(file), "swiftc -frontend -parse refuses \(file)")
            let s = SwiftSource(try Data(contentsOf: URL(fileURLWithPath: file)), file: file)
            #expect(s.problems.isEmpty, "\(file): \(s.problems)")
        }
        for bad in ["let a = \"open\n", "/* never closed", "let s = \"\"\"\nno end", "class A {", "let x = `open\n", "let r = #/ x\n"] {
            let path = try SwiftParserCheck.temporary(bad)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(!SwiftParserCheck.parses(path), "\(bad)")
            #expect(!lex(bad).problems.isEmpty, "\(bad)")
        }
    }

    /// The real apps of ../shared/corpus/swift lex totally and without a problem.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: SwiftParserCheck.corpus), "../shared/corpus/swift is absent"))
    func theCorpusLexesWithoutProblem() throws {
        let files = SwiftParserCheck.swiftFiles(under: SwiftParserCheck.corpus)
        #expect(files.count > 50)
        for file in files {
            let s = SwiftSource(try Data(contentsOf: URL(fileURLWithPath: file)), file: file)
            #expect(s.problems.isEmpty, "\(file): \(s.problems.prefix(3))")
            #expect(isTotal(s), "\(file)")
        }
    }
}

/// Runs the real Swift parser (`swiftc -frontend -parse`) over files, for the cross-checks.
enum SwiftParserCheck {
    static let swiftc: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    static var available: Bool { swiftc != nil }
    static let corpus = URL(fileURLWithPath: Paths.root).deletingLastPathComponent().appendingPathComponent("shared/corpus/swift").path

    static func parses(_ file: String) -> Bool {
        guard let swiftc else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: swiftc)
        p.arguments = ["-frontend", "-parse", file]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    static func swiftFiles(under folder: String) -> [String] {
        let e = FileManager.default.enumerator(atPath: folder)
        var out: [String] = []
        while let f = e?.nextObject() as? String { if f.hasSuffix(".swift") { out.append(folder + "/" + f) } }
        return out.sorted()
    }

    /// The Swift fixtures that are valid Swift (everything under Tests/Fixtures/swift but `bad/`).
    static func fixtureFiles() -> [String] {
        swiftFiles(under: Paths.fixture("swift")).filter { !$0.contains("/bad/") }
    }

    static func temporary(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "lex-" + UUID().uuidString + ".swift"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
