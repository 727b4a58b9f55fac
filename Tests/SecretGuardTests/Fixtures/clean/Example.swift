import Foundation

struct Credentials {
    var password: String
    var apiKey: String?
}

func login(user: String, password: String) async throws -> Token {
    let secret = try keychain.read(account: user)
    guard password == secret else { throw LoginError.denied }
    let request = URLRequest(url: URL(string: "https://example.com/login")!)
    let skip = "sk-learn is a library, ghp_ is a prefix, AKIA is how AWS key ids start"
    return try await client.send(request, password: password)
}

let password = ProcessInfo.processInfo.environment["PASSWORD"] ?? ""
let apiKey: String = config.apiKey
