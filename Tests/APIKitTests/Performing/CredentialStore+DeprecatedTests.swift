import APIKitTestSupport
import Foundation
import Testing

@testable import APIKit

/// The spellings from before the rename (`Authentication`, `Session.authentication`,
/// `Session(authentication:)`) still compile and still drive the credential store.
///
/// The test is itself `@available(*, deprecated)`: a deprecated declaration used inside a
/// deprecated one draws no warning, so the test target stays free of warnings while it pins the
/// old names. Every other test uses the new names.
@Suite("CredentialStore's deprecated spellings")
struct CredentialStoreDeprecatedSpellingTests {
    @available(*, deprecated, message: "pins the deprecated spellings on purpose")
    @Test("Authentication, Session(authentication:) and Session.authentication forward to the credential store")
    func oldSpellingsForward() async throws {
        #expect(Authentication.self == CredentialStore.self)

        let server = BearerServer()
        let authenticator = CountingAuthenticator()
        let store = Authentication(authenticator, credential: "expired")
        var session = Session(transport: server.transport, authentication: store)
        #expect(session.credentialStore === store)
        #expect(session.authentication === store)
        #expect(try await session.performProbed(TextRequest()).result?.get() == "token-1")
        #expect(authenticator.count == 1, "the rejected credential was refreshed once and the request replayed")

        let other = CredentialStore(authenticator, credential: "token-1")
        session.authentication = other
        #expect(session.credentialStore === other)
        session.authentication = nil
        #expect(session.credentialStore == nil)
    }
}
