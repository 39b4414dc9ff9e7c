import Foundation
import SwiftData

/// A journal entry: top-level models, every value type SwiftData stores as it is.
@Model
public final class Entry {
    public var id: UUID = UUID()
    var title: String = ""
    private(set) var createdAt: Date = Date.now
    var wordCount: Int = 0
    var rating: Int16 = 0
    var steps: Int32? = nil
    var isPinned: Bool = false
    var mood: Double = 0.5
    var weight: Float?
    var spent: Decimal = 0
    var link: URL?
    @Attribute(.externalStorage) var photo: Data?
    @Attribute(.allowsCloudEncryption) var secret: String?
    @Attribute(originalName: "body") var text: String = """
        Dear diary,
        "quoted" and \(1 + 1) interpolated
        """
    var tags: [String] = []
    var counts: [String: Int] = [:]
    var places: Set<String> = []
    var weather: Weather? = nil
    var location: Location?
    var kind: Kind = Kind.text
    var attachments: Optional<Array<Attachment>> = []
    var notebook: Notebook?
    var mentions: [Person]? = []
    @Transient var isEditing = false
    var draft: String? {
        didSet { wordCount = draft?.split(separator: /\s+/).count ?? 0 }
    }
    var summary: String { title.isEmpty ? #"untitled "entry""# : title }
    var shouting: String {
        get { title.uppercased() }
        set { title = newValue.lowercased() }
    }
    static let sample = Entry(title: "sample")

    enum Kind: String, Codable { case text, photo }

    init(title: String,
         createdAt: Date = .now,
         tagger: () -> [String] = { ["a", "b"] }) {
        self.title = title
        self.createdAt = createdAt
        self.tags = tagger()
    }
}

/// A Codable struct stored as one value.
struct Location: Codable, Hashable {
    var latitude: Double
    var longitude: Double
}
