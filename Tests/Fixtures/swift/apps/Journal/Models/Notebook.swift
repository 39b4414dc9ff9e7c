import SwiftData

typealias Folder = Notebook

@Model final class Notebook {
    var name: String = "Untitled"
    @Relationship(deleteRule: .cascade, inverse: \Entry.notebook)
    var entries: [Entry]? = []
    var parent: Folder?
    @Relationship(inverse: \Notebook.parent) var children: [Folder]? = []

    init(name: String) { self.name = name }
}

@Model final class Attachment {
    var fileName: String?
    var entry: Entry?
    init() {}
}

/// Many-to-many: both sides to-many, the inverse inferred.
@Model final class Person {
    var `name`: String?
    var entries: [Entry]?
    init() {}
}
