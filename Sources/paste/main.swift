print("paste")
