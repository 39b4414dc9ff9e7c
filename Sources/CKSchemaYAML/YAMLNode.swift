import CKSchemaModel

/// The nodes of one parsed YAML file, stored flat: one entry per node in a few arrays,
/// children as runs of indexes. Building it allocates no object per node and freeing
/// it frees a handful of arrays, which is what keeps loading a large schema near
/// libyaml's own speed (see Benchmarks/RESULTS.md).
public final class YAMLTree: Sendable {
    let shapes: [YAMLNode.Shape]
    let styles: [YAMLNode.ScalarStyle]
    let texts: [String]
    let lines: [Int32]
    let columns: [Int32]
    /// A scalar's or a flow collection's width in the file (quotes and brackets included)
    /// when it stands on one line, else -1.
    let widths: [Int32]
    let childStart: [Int32]
    let childCount: [Int32]
    let childList: [Int32]

    init(_ b: YAMLTreeStorage) {
        shapes = b.shapes
        styles = b.styles
        texts = b.texts
        lines = b.lines
        columns = b.columns
        widths = b.widths
        childStart = b.childStart
        childCount = b.childCount
        childList = b.childList
    }
}

/// The growing arrays a `YAMLTree` is built from.
struct YAMLTreeStorage {
    var shapes: [YAMLNode.Shape] = []
    var styles: [YAMLNode.ScalarStyle] = []
    var texts: [String] = []
    var lines: [Int32] = []
    var columns: [Int32] = []
    var widths: [Int32] = []
    var childStart: [Int32] = []
    var childCount: [Int32] = []
    var childList: [Int32] = []

    /// Room for about `nodes` nodes, so that a large file's arrays grow once, not by doubling.
    mutating func reserve(nodes: Int) {
        shapes.reserveCapacity(nodes)
        styles.reserveCapacity(nodes)
        texts.reserveCapacity(nodes)
        lines.reserveCapacity(nodes)
        columns.reserveCapacity(nodes)
        widths.reserveCapacity(nodes)
        childStart.reserveCapacity(nodes)
        childCount.reserveCapacity(nodes)
        childList.reserveCapacity(nodes)
    }

    /// Appends a node and returns its index.
    mutating func append(_ shape: YAMLNode.Shape, _ style: YAMLNode.ScalarStyle, _ text: String, line: Int, column: Int,
                         width: Int = -1, start: Int32 = 0, count: Int32 = 0) -> Int32 {
        shapes.append(shape)
        styles.append(style)
        texts.append(text)
        lines.append(Int32(truncatingIfNeeded: line))
        columns.append(Int32(truncatingIfNeeded: column))
        widths.append(Int32(clamping: width))
        childStart.append(start)
        childCount.append(count)
        return Int32(shapes.count - 1)
    }
}

/// A YAML node with the place it starts: a handle into its file's `YAMLTree`.
public struct YAMLNode: Sendable {
    public enum ScalarStyle: UInt8, Sendable, Hashable { case plain, singleQuoted, doubleQuoted, literal, folded }

    /// What the node is, with its contents (built on demand).
    public enum Kind: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    /// What the node is, without its contents.
    public enum Shape: UInt8, Sendable { case scalar, sequence, mapping }

    public let tree: YAMLTree
    public let index: Int32

    init(tree: YAMLTree, index: Int32) {
        self.tree = tree
        self.index = index
    }

    public var shape: Shape { tree.shapes[Int(index)] }
    public var style: ScalarStyle { tree.styles[Int(index)] }
    /// A scalar's text ("" for collections).
    public var text: String { tree.texts[Int(index)] }
    /// 1-based line of the node's first character.
    public var line: Int { Int(tree.lines[Int(index)]) }
    /// 1-based column (in characters) of the node's first character.
    public var column: Int { Int(tree.columns[Int(index)]) }

    /// How many characters a scalar or a flow collection (`[queryable, sortable]`) takes in the
    /// file, quotes and brackets included, when it stands on one line (libyaml's start and end
    /// marks); nil for a block collection or anything over several lines.
    public var sourceWidth: Int? {
        let w = tree.widths[Int(index)]
        return w < 0 ? nil : Int(w)
    }

    /// How many children: items of a sequence, or keys and values of a mapping.
    public var childCount: Int { Int(tree.childCount[Int(index)]) }
    /// The i-th child (a mapping's keys and values alternate).
    public func child(_ i: Int) -> YAMLNode { YAMLNode(tree: tree, index: tree.childList[Int(tree.childStart[Int(index)]) + i]) }

    public var kind: Kind {
        switch shape {
        case .scalar: .scalar(text, style)
        case .sequence: .sequence(items)
        case .mapping: .mapping(Array(pairs))
        }
    }

    public var scalar: String? { shape == .scalar ? text : nil }
    public var sequence: [YAMLNode]? { shape == .sequence ? items : nil }
    /// A mapping's pairs as an array (allocates; hot code iterates `pairs` instead).
    public var mapping: [YAMLPair]? { shape == .mapping ? Array(pairs) : nil }

    /// A sequence's items (empty for other nodes).
    public var items: [YAMLNode] { shape == .sequence ? (0..<childCount).map(child) : [] }

    /// A mapping's pairs, without building an array (empty for other nodes).
    public var pairs: Pairs { Pairs(node: self, count: shape == .mapping ? childCount / 2 : 0) }

    /// True when this is a scalar equal to `other`.
    public func isScalar(_ other: String) -> Bool { shape == .scalar && text == other }

    /// A plain `~`, `null` or empty scalar: YAML's null.
    public var isNull: Bool {
        guard shape == .scalar, style == .plain else { return false }
        let t = text
        return t.isEmpty || t == "~" || t == "null" || t == "Null" || t == "NULL"
    }

    /// What the node is, for messages: "a mapping", "a list", "a scalar".
    public var kindName: String {
        switch shape {
        case .scalar: isNull ? "nothing" : "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    public func location(in file: String) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }

    /// A mapping's key/value pairs, read straight from the tree.
    public struct Pairs: RandomAccessCollection, Sendable {
        let node: YAMLNode
        let count_: Int
        init(node: YAMLNode, count: Int) { self.node = node; count_ = count }
        public var startIndex: Int { 0 }
        public var endIndex: Int { count_ }
        public subscript(i: Int) -> YAMLPair { YAMLPair(key: node.child(2 * i), value: node.child(2 * i + 1)) }
    }
}

/// One key and its value in a mapping.
public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }

    /// The key's text (keys in schema files are scalars; others have an empty name).
    public var name: String { key.shape == .scalar ? key.text : "" }
}

/// A parsed YAML file: its root node, and the lines where multi-line scalars stand,
/// which the comment scanner must not read as comments.
public struct YAMLDocument: Sendable {
    public var file: String
    public var root: YAMLNode?
    public var multilineScalarLines: [ClosedRange<Int>]
}
