enum Names {
    static let note = "Note"
}

enum Keys {
    static let text = "txt"
    static let shared = "sharedInZ"
}

enum NoteField: String {
    case ranking, secret, tag = "tags"
}
