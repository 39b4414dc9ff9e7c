import Foundation
import CKSchemaModel

/// One YAML schema file as read: the model it holds, its comments and the lines of
/// its structural keys (so that `fmt` can put comments back where they were).
public struct SchemaFile: Sendable {
    public var path: String
    public var schema: Schema
    public var comments: [SourceComment]
    /// Lines of structural keys by path (`recordTypes`, `recordTypes.Note.fields`).
    public var keyLines: [String: Int]
    /// The file's text.
    public var text: String

    /// The memberwise initializer, for the layers above.
    package init(path: String, schema: Schema, comments: [SourceComment], keyLines: [String: Int], text: String) {
        self.path = path
        self.schema = schema
        self.comments = comments
        self.keyLines = keyLines
        self.text = text
    }
}
