print("paste-mock")
