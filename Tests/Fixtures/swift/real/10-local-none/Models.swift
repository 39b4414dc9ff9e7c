import Foundation
import SwiftData

@Model
final class Note {
    var title: String = ""
    var body: String?
    init() {}
}

@Model
final class Analysis {
    var score: Double = 0
    var computedAt: Date?
    init() {}
}
