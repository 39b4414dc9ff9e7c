import Foundation
import SwiftData

@Model
final class Draft {
    var text: String = ""
    var savedAt: Date?
    init() {}
}

@Model
final class Cache {
    var key: String = ""
    var payload: Data?
    init() {}
}

enum Store {
    // Every model is kept in a local store: nothing syncs with CloudKit.
    static let configuration = ModelConfiguration(schema: Schema([Draft.self, Cache.self]), cloudKitDatabase: .none)
}
