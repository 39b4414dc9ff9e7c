// Every construct of Swift's lexical grammar the lexer knows, in a file `swiftc -parse` accepts.
/* A block comment /* with a nested one */ still open
   over lines */
import Foundation

let plain = "a \"quoted\" word\t\u{1F600}"
let interpolated = "outer \("inner \("deepest \(1 + 2)") done") end"
let withParens = "value \((1 + 2) * (3))"
let multi = """
    line one
    "quotes" and \(plain) inside
      indented \
    continued
    """
let raw = #"raw \n "quotes" \#(plain)"#
let rawer = ##"one # and "# inside"##
let rawMulti = #"""
    raw """ still inside
    """#
let regex = /ab+c/
let extended = #/a/b/#
let multiRegex = #/
  (?<word> \w+ )   # a comment in an extended regex
  /#
let division = 10 / 2 / 5
let `class` = 3
let hex = 0x1F_FF, octal = 0o17, binary = 0b1010, float = 1.5e-3, hexFloat = 0x1p-3, big = 1_000_000
let range = 1..<5
let closed = 1...5
let path = \String.count
let optional: String? = nil
let chained = optional?.count ?? 0
let forced: Int! = 1
let sum = forced! + 1
let generic: [String: [Int]]? = ["a": [1, 2]]
let shift = 1 << 3 >> 1
let closure = [1, 2].map { $0 * 2 }
#if DEBUG
let mode = "debug"
#elseif os(Linux)
let mode = "linux"
#else
let mode = "release"
#endif
struct Wrapper<Value: Equatable> {
    @available(*, deprecated, message: "use other")
    var value: Value
    var nested: Optional<Array<Set<Int>>>
}
func compare(_ a: Int, _ b: Int) -> Bool { a < b && b > a }
let émoji = "café"
