import Foundation
import Testing

@testable import APIKit

@Suite("Mirror walk over a configuration")
struct ParameterCollectorTests {
    struct Mixed: RequestConfiguration, Sendable {
        @Header("X-A") var a: String? = "1"
        var plain = "not a parameter"
        @Query("q") var query = "x"
        var computed: Header { Header(wrappedValue: "no", "X-Computed") }
        @Field("f") var field = 2
    }

    @Test(
        "wrapper storage `_name` is reported as field `name`, in declaration order; plain and computed properties are ignored"
    )
    func fieldNamesAndOrder() {
        let parameters = ParameterCollector.collect(from: Mixed())
        #expect(parameters.headers.map(\.field) == ["a"])
        #expect(parameters.headers.map(\.parameter.name) == ["X-A"])
        #expect(parameters.query.map(\.field) == ["query"])
        #expect(parameters.body.map(\.field) == ["field"])
    }

    final class LazyHolder: RequestConfiguration, @unchecked Sendable {
        lazy var lazyHeader = Header(wrappedValue: "lazy", "X-Lazy")
        @Header("X-Eager") var eager = "eager"
    }

    @Test("lazy storage is ignored even once it holds a parameter value")
    func lazyStorageIgnored() {
        let holder = LazyHolder()
        _ = holder.lazyHeader  // fill the lazy storage
        let parameters = ParameterCollector.collect(from: holder)
        #expect(parameters.headers.map(\.parameter.name) == ["X-Eager"])
    }

    class BaseConfiguration: RequestConfiguration, @unchecked Sendable {
        @Header("X-Base") var baseHeader = "b"
    }

    final class DerivedConfiguration: BaseConfiguration, @unchecked Sendable {
        @Header("X-Derived") var derivedHeader = "d"
    }

    @Test("a class's superclass parameters come first")
    func superclassFieldsCount() {
        let parameters = ParameterCollector.collect(from: DerivedConfiguration())
        #expect(parameters.headers.map(\.parameter.name) == ["X-Base", "X-Derived"])
    }

    struct SeparateConfiguration: RequestConfiguration, Sendable {
        @Query("page") var page = 3
    }

    @Test("a separate configuration struct works like Self")
    func separateConfiguration() throws {
        let request = try urlRequest(SeparateConfiguration())
        #expect(request.percentEncodedQuery == "page=3")
    }

    @propertyWrapper
    struct Everywhere: HeaderProtocol, QueryProtocol, BodyProtocol {
        var wrappedValue: String
        var headerFields: [HeaderField] { [HeaderField(name: "X-E", value: wrappedValue)] }
        var queryParameters: [QueryParameter] { [QueryParameter(key: "e", value: wrappedValue)] }
        var bodyParameters: [BodyParameter] { [BodyParameter(key: "e", value: wrappedValue, encoding: .json)] }
    }

    struct UsesEverywhere: RequestConfiguration, Sendable {
        @Everywhere var value = "v"
    }

    @Test("one wrapper may conform to several parameter protocols")
    func wrapperInSeveralRoles() throws {
        let request = try urlRequest(UsesEverywhere(), method: .post)
        #expect(request.header("X-E") == "v")
        #expect(request.percentEncodedQuery == "e=v")
        #expect(request.bodyText == #"{"e":"v"}"#)
    }
}
