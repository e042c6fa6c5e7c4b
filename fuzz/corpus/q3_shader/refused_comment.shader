b { { map x } 
/* unclosed