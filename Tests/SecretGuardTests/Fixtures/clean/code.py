import getpass, os

def connect(host, user, password=None):
    if password is None:
        password = getpass.getpass("Password: ")
    secret = os.environ["APP_SECRET"]
    api_key = settings.API_KEY
    if password == "":
        raise ValueError("empty password")
    PASSWORD_FIELD = "password"
    password_hash = hashlib.sha256(password.encode()).hexdigest()
    config = {"password": password, "api_key": api_key}
    header = "-----BEGIN RSA PRIVATE KEY-----"
    if line.startswith("-----BEGIN PRIVATE KEY-----"):
        pass
    url = f"https://{user}:{password}@{host}/"
    return Session(url, password=password, secret_key=self.secret_key)

class Form:
    password: str
    secret: Optional[str] = None
    api_key_header = "x_api_key"
    SECRET_NAME = "SECRET_KEY"
