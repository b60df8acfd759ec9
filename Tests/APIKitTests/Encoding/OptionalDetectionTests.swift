import Testing

@testable import APIKit

@Suite("Optional boxed in Any")
struct OptionalDetectionTests {
    @Test("nil at any level of Optional is nil; a non-optional never is")
    func nilThroughAny() {
        let none: Int? = nil
        let nested: Int?? = .some(nil)
        let some: Int?? = .some(.some(3))
        #expect(isNil(none as Any))
        #expect(isNil(nested as Any))
        #expect(!isNil(some as Any))
        #expect(!isNil(3 as Any))
        #expect(!isNil("" as Any))
    }
}
