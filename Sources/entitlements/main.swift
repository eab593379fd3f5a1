print("scaffold")
