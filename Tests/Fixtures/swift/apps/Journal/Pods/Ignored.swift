import SwiftData
// Dependencies (Pods/, like .build/ and DerivedData/) are never read: this model must not appear.
@Model final class Ignored { var x: Int = 0; init() {} }
